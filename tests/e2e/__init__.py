"""End-to-end tests inside the real Claude Code, Codex and Gemini CLIs.

Off unless HOOKTUI_E2E=1. The pinned CLIs come from the npm registry:
`.ci/e2e-setup` installs them into .ci-e2e/node_modules (or point
HOOKTUI_E2E_NODE_MODULES elsewhere). Each CLI runs under `unshare -n`, beside a
scripted fake model server (fake_models.py), with only loopback up.

    .ci/e2e-setup && HOOKTUI_E2E=1 pytest tests/e2e

cases.py is the table of what each real runtime does with each hook answer.
"""
