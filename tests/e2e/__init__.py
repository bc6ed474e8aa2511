"""End-to-end tests inside the real Claude Code, Codex, Gemini CLI, GitHub Copilot CLI
and Qwen Code.

Off unless HOOKTUI_E2E=1. The pinned CLIs come from the npm registry:
`.ci/e2e-setup` installs them into .ci-e2e/node_modules (or point
HOOKTUI_E2E_NODE_MODULES elsewhere; Copilot's unpacked package is cached in
HOOKTUI_E2E_CACHE, default beside node_modules). Each CLI runs under `unshare -n`,
beside a scripted fake model server (fake_models.py, fake_wire.py), with only
loopback up.

    .ci/e2e-setup && HOOKTUI_E2E=1 pytest tests/e2e

ORACLE.md says what each real runtime did with each answer and which test pins it;
the cases are data (cases*.py); `python -m tests.e2e.capture` re-captures the
payloads and environments under tests/tap/fixtures/captured.
"""
