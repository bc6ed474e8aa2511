"""The shape of a runtime: a frozen set of facts plus detect / parse / judge / encode.

Each file in this folder builds one `Runtime` (a subclass holding the methods,
an instance holding the facts); the registry (`__init__.py`) lists them. No
fact about a particular runtime lives here: only what a fact means.

Everything here is on the tap's recording path: it imports no msgspec, no
`typing`, no `dataclasses` (facts.py says why).
"""

from __future__ import annotations

from hooktui.tap.canonical import Call, Outcome, Verdict
from hooktui.tap.runtimes.facts import Factory, Facts
from hooktui.tap.runtimes.merge import HookSource, MergeRule, SettingsReading

TYPE_CHECKING = False  # not `typing`'s: the tap's recorder loads this (see tap/base/jsonio.py)
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from typing import Any

# The longest timeout a settings value may ask for; longer means "never" and is
# clamped to this (about 24.8 days: the largest delay a JavaScript timer takes).
MAX_TIMEOUT_MS = 2**31 - 1


class TimeoutRule(Facts):
    """A default timeout that applies to one event and/or one handler type ("*": any).

    `since`: the first runtime version the rule holds for ("" = always), so a
    runtime that tells hooks its version can be judged by the rules of that version.
    `clamps`: the runtime also lowers a longer configured timeout to `ms` (Codex's
    SessionEnd and Interrupt hooks get 3 s whatever the settings say).
    """

    event: str = "*"
    handler_type: str = "*"
    ms: int | None = None
    since: str = ""
    clamps: bool = False
    max_ms: int | None = None  # the most a configured timeout gets here (None: no cap)


class Timeouts(Facts):
    """How long the runtime lets a hook run, and how its settings spell a timeout."""

    default_ms: int | None = None  # a command hook at any event, when nothing else says
    rules: tuple[TimeoutRule, ...] = ()  # first match wins, before default_ms
    unit_ms: int = 1000  # milliseconds per unit of the settings' timeout value

    def default_for(
        self, event: str = "", handler_type: str = "command", version: str = ""
    ) -> int | None:
        """The default for a handler at a native event, by the rules of `version`
        (unknown: the newest rules)."""
        rule = self._rule(event, handler_type, version)
        return rule.ms if rule is not None else self.default_ms

    def _rule(self, event: str, handler_type: str, version: str) -> TimeoutRule | None:
        for rule in self.rules:
            if rule.event in ("*", event) and rule.handler_type in ("*", handler_type):
                if in_force(rule.since, version):
                    return rule
        return None

    def applied(
        self, value: Any, event: str = "", handler_type: str = "command", version: str = ""
    ) -> int | None:
        """The timeout the runtime applies to a hook whose settings say `value`: the
        configured one (lowered by a clamping rule, or to a rule's cap), else the default
        for the event."""
        configured = self.from_settings(value)
        if configured is None:
            return self.default_for(event, handler_type, version)
        rule = self._rule(event, handler_type, version)
        if rule is not None and rule.clamps and rule.ms is not None:
            return min(configured, rule.ms)
        if rule is not None and rule.max_ms is not None:
            return min(configured, rule.max_ms)
        return configured

    def from_settings(self, value: Any) -> int | None:
        """A settings value in ms, clamped to MAX_TIMEOUT_MS; None when it is not a
        usable number (absent, not a number, zero, negative, NaN)."""
        if isinstance(value, bool) or not isinstance(value, int | float):
            return None
        if not value > 0:  # also false for NaN
            return None
        ms = value * self.unit_ms
        return MAX_TIMEOUT_MS if ms >= MAX_TIMEOUT_MS else max(1, int(ms))


class HttpHooks(Facts):
    """How a runtime's `http` hooks are written, and how it sends one (the tap's http
    call does the same POST; the runtime's `http_answer` reads the reply)."""

    type: str = "http"  # the handler type
    url_key: str = "url"
    headers_key: str = "headers"
    env_key: str = "allowedEnvVars"  # variables a header may interpolate ($V, ${V})
    ignored_headers: tuple[str, ...] = ()  # header names it drops (lower case)
    # Variables it never interpolates into a header, whatever the hook allows
    # (`withheld_any_case`: matched whatever their case).
    withheld_env: tuple[str, ...] = ()
    withheld_any_case: bool = False
    # What it reads as a variable in a header (group 1 or 2 is the name), and
    # whether it interpolates the URL too.
    var_pattern: str = r"\$\{([A-Z_][A-Z0-9_]*)\}|\$([A-Z_][A-Z0-9_]*)"
    interpolate_url: bool = False
    header_encoding: str = "latin-1"  # how a header value's text goes out as bytes
    # Settings keys of its own policy on http hooks (allowed URLs, ...), and the
    # files an administrator sets them in: a wrapped hook's POST is the tap's,
    # which that policy would not see, so install leaves such hooks alone.
    policy_keys: tuple[str, ...] = ()
    policy_files: tuple[str, ...] = ()
    # Whether the runtime's own checks before the POST depend on the hook's event
    # (install then writes `--event` into the command, for `http_check`).
    checks_event: bool = False


class HookFiles(Facts):
    """Hooks that are files, one per event, in folders the runtime scans: no settings file
    (the Layout's project and user "files" are those folders). `names`: a file's event
    name (matched in any case) -> the native event its requests carry ("" for one the
    runtime knows but never runs); `extensions`: the endings it runs ("" for none);
    `waited`: the events whose hooks it waits for (the others run in the background)."""

    names: Mapping[str, str]
    extensions: tuple[str, ...]
    waited: frozenset[str] = frozenset()


class Layout(Facts):
    """Where a runtime's hook settings live and how they are written.

    Paths are relative: `project_files` to a project folder (the cwd, then the
    top of its git work tree), `user_files` to the user folder (`user_dir` under
    HOME, or `$user_dir_env` when that is set; `$user_dir_env/user_dir_env_child` when
    a child is named, the variable then honoured only as an absolute path, as XDG's are).
    """

    project_files: tuple[str, ...]
    user_dir: str
    user_files: tuple[str, ...]
    user_dir_env: str = ""
    user_dir_env_child: str = ""
    # A user file (or hook folder) that a variable of its own moves: its name in
    # `user_files` -> "VARIABLE/child"; when the variable is set (not blank), the file
    # is `$VARIABLE/child` instead (a relative value: from the project folder).
    user_file_env: Mapping[str, str] = Factory(dict)
    # A shared project file's per-person twin the runtime also reads, by name in the
    # same folder ({"settings.json": "settings.local.json"}): install offers it when
    # the shared file is tracked by git.
    local_twins: Mapping[str, str] = Factory(dict)
    # What the runtime reads: the file kinds in the order to try them, and the
    # names it always reads as one kind. The kind never comes from the extension.
    formats: tuple[str, ...] = ("json",)
    file_formats: Mapping[str, str] = Factory(dict)
    comments: bool = False  # JSON with // and /* */ comments is accepted
    nested: bool = True  # hooks.<event>[] = {matcher, hooks: [handler]}; else = [handler]
    # Or one list of hook tables, each naming its event (`hooks = [{event_key: ...}]`,
    # TOML's [[hooks]]), its matcher under `matcher_key`.
    hooks_list: bool = False
    event_key: str = ""
    matcher_key: str = "matcher"
    command_key: str = "command"
    name_key: str = ""  # a handler's own name, where it has one (`MergeRule.dedup`)
    exec_args_key: str = ""  # exec form: the command plus an argv list, no shell
    timeout_key: str = "timeout"
    # Keys read, in turn, when `timeout_key` is absent (Copilot: `timeout`, seconds too).
    more_timeout_keys: tuple[str, ...] = ()
    type_key: str = "type"
    default_type: str = ""  # the handler type when none is written ("": it must be written)
    # Every handler type the runtime runs (values of `type_key`). Only `command`
    # handlers run a command the tap can wrap; the rest install lists as unwrapped.
    handler_types: tuple[str, ...] = ("command",)
    async_key: str = ""  # a true value here: the runtime does not wait for the answer
    async_keys: tuple[str, ...] = ()  # more keys that mean the same (they imply async)
    http: HttpHooks | None = None  # None: it has no http hooks (or install cannot wrap them)
    http_unwrapped: str = ""  # why its http hooks are not wrapped ("": the general reason)
    # (key, value) of a handler whose failure blocks the action (fails closed);
    # the first version that reads it, and the native events where it is ignored.
    fail_closed: tuple[str, Any] = ("", None)
    fail_closed_since: str = ""
    fail_closed_ignored: frozenset[str] = frozenset()
    # A handler key holding variables the runtime sets for that hook alone
    # ({name: value}): install tells the tap their names, so the record keeps them.
    hook_env_key: str = ""
    # How the runtime runs a command line: `<shell> -c <text>`, after replacing
    # each of `substitutions` in the text with a shell-quoted value.
    shell: str = "sh"
    substitutions: tuple[str, ...] = ()
    # The shell is whatever $SHELL names (the user's login shell): maybe fish or tcsh,
    # so install writes the line every shell reads alike (install/anyshell.py).
    login_shell: bool = False
    # A handler key choosing the shell, and the values under which the line still
    # runs in a POSIX shell (the wrapped line is one); other values are not wrapped.
    shell_key: str = ""
    posix_shells: tuple[str, ...] = ()
    strict_events: bool = False  # one unknown event name makes it ignore the whole file
    hook_files: HookFiles | None = None  # hooks are files in folders, not settings
    # A file of the runtime's package that runs these hooks, which install puts at this
    # path beside the settings file (a plugin, for a runtime with no command hooks).
    runner: str = ""
    after_install: str = ""  # what the user must do after install, if anything


def timeout_setting(layout: Layout, handler: Mapping[str, Any]) -> Any:
    """A handler's timeout as its runtime reads it: the first of the layout's timeout keys
    it holds (None when it holds none)."""
    for key in (layout.timeout_key, *layout.more_timeout_keys):
        if handler.get(key) is not None:
            return handler[key]
    return None


class Runtime(Facts):
    """One runtime: its facts (the fields) and its reading of the protocol (the methods).

    - detect(request): does this parsed JSON request look like this runtime's?
    - parse(request): native request -> canonical Call (never raises: any type in)
    - judge(call, outcome): what the runtime itself makes of the hook's answer
    - encode(call, verdict): the native answer (stdout, stderr, exit code) that
      makes this runtime reach `verdict`; ValueError when it has no way to say it.
    - request_for(call): the native request this runtime would send for `call`
      (the demo's traffic and the tests' examples).
    """

    name: str = "unknown"
    title: str = "the runtime"  # in sentences: "Claude Code treats ..."
    short: str = ""  # the label in narrow columns (default: the name)
    priority: int = 1000  # detection order: lower is asked first
    events: Mapping[str, str] = Factory(dict)  # native name -> canonical
    guards: frozenset[str] = frozenset()  # native events whose hook can refuse the action
    env_vars: tuple[str, ...] = ()  # variables the runtime sets and hooks read
    project_dir_env: str = ""  # the one of env_vars that holds the project folder
    version_env: tuple[str, ...] = ()  # variables that tell hooks the runtime's version
    # Variables only this runtime sets for its hooks (`NAME` or `NAME=prefix`, as
    # version_env, which counts too): when one is set, this runtime may have called.
    caller_env: tuple[str, ...] = ()
    # Runtimes whose hook settings this one runs too, sending their payloads from its own
    # environment (Copilot and Continue run Claude Code's `.claude/settings.json`).
    guest_of: tuple[str, ...] = ()
    timeouts: Timeouts = Factory(Timeouts)
    budget_ms: int | None = None  # a latency goal without a kill (fastpace: 50 ms)
    settings: Layout | None = None  # None: `hooktui install` cannot edit its settings
    # Request keys: prompts and tool output (kept only as digests by --capture digest).
    prompt_keys: tuple[str, ...] = ()
    output_keys: tuple[str, ...] = ()
    # Tool input keys that hold the command line or the file path (summaries).
    command_keys: tuple[str, ...] = ()
    path_keys: tuple[str, ...] = ()
    # Native tool names the demo uses: a shell command, a file read.
    shell_tool: str = ""
    read_tool: str = ""
    # Several hooks on one call: how this runtime runs and combines them (merge.py).
    merge: MergeRule = Factory(MergeRule)
    # Every place it reads hooks from, in its order (merge.py); `sources_note` says why
    # there are none when there are none (hooks registered in code, say).
    hook_sources: tuple[HookSource, ...] = ()
    sources_note: str = ""
    reading: SettingsReading = Factory(SettingsReading)
    # answer_effects names earlier taps wrote for this runtime -> today's canonical.ACTIONS
    # names: records already on disk are read with today's (model.Record).
    effect_names_before: Mapping[str, str] = Factory(dict)
    # Set by for_version / for_hook, not by a runtime's file: the version whose rules
    # these are ("": the newest), and whether the hook's settings make its failure block.
    version: str = ""
    hook_fails_closed: bool = False

    @property
    def label(self) -> str:
        return self.short or self.name

    @property
    def default_timeout_ms(self) -> int | None:
        return self.timeouts.default_ms

    def event_of(self, native: str) -> str:
        return self.events.get(native, "other")

    def detectors(self) -> tuple[tuple[int, Callable[[Any], bool]], ...]:
        """(priority, test) pairs; a runtime may claim some requests earlier than others."""
        return ((self.priority, self.detect),)

    def for_version(self, version: str | None) -> Runtime:
        """The rules of that version of the runtime ("" or None: the newest). A runtime
        whose rules changed reads `self.version` (with `in_force`) where they differ."""
        version = version or ""
        return self if version == self.version else self.replace(version=version)

    def for_hook(self, fail_closed: bool = False) -> Runtime:
        """These rules for a hook whose settings ask that its failure block the action."""
        if fail_closed == self.hook_fails_closed:
            return self
        return self.replace(hook_fails_closed=fail_closed)

    def judge_hook(self, call: Call, outcome: Outcome) -> Verdict:
        """`judge`, then the hook's own settings: where this version honours them at this
        event, a failure of a hook set to fail closed blocks the action. (A runtime whose
        answers read otherwise under that setting says so in its own `judge`.)"""
        verdict = self.judge(call, outcome)
        if (
            verdict.decision == "failure"
            and verdict.effect != "blocks"
            and self.hook_fails_closed
            and self.honours_fail_closed(call)
        ):
            key, value = self.settings.fail_closed
            verdict.effect = "blocks"
            verdict.failure_detail = (
                f"{verdict.failure_detail}; but this hook's settings say {key}: {value!r}, "
                f"so {self.title} blocks the action instead"
            )
        return verdict

    def version_in(self, environ: Mapping[str, str]) -> str:
        """The runtime's version as it tells its hooks ("" when it does not).

        Each of `version_env` is a variable name, or `NAME=prefix` when the
        value counts only if it starts with `prefix` (Claude Code's `AI_AGENT`
        names the agent first); the version is the value's first run of
        digits, dots and dashes, dashes read as dots (`2-1-332` -> `2.1.332`).
        """
        for spec in self.version_env:
            name, _, prefix = spec.partition("=")
            value = environ.get(name)
            if value and value.startswith(prefix):
                found = version_text(value[len(prefix) :])
                if found:
                    return found
        return ""

    def timeout_for(self, native_event: str, version: str = "") -> int | None:
        """The timeout this runtime gives a command hook that sets none."""
        return self.timeouts.default_for(native_event, "command", version or self.version)

    def fails_closed(self, call: Call, configured: bool = False, version: str = "") -> bool:
        """Does a failure of this call's hook (a crash, an error exit, no start) block the
        action? Yes when the runtime itself reads a crash so, or when the hook's settings
        asked for it (`configured`, from `settings.fail_closed`) where this version of the
        runtime honours that at this event."""
        rules = self.for_version(version).for_hook(configured)
        try:
            crash = rules.judge_hook(call, Outcome(exit_code=None, signal=9))
        except Exception:  # a runtime that cannot judge this call: nothing blocks it
            return False
        return crash.decision == "failure" and crash.effect == "blocks"

    def honours_fail_closed(self, call: Call) -> bool:
        """Does this version of the runtime read the settings' fail-closed key at this
        call's event?"""
        layout = self.settings
        if layout is None or not layout.fail_closed[0]:
            return False
        if call.native_event in layout.fail_closed_ignored:
            return False
        return in_force(layout.fail_closed_since, self.version)

    def combine(self, answers: Any, native_event: str = "") -> Any:
        """What this runtime does with a call whose hooks gave `answers` (combine.Answer)
        at `native_event`: a combine.Combined, by `merge`. A runtime whose reading is not
        a MergeRule overrides this."""
        from hooktui.tap.runtimes import combine  # readers only

        return combine.combine(answers, self.merge)

    def settings_problems(self, data: Any) -> list[tuple[str, str, str]]:
        """What this runtime's own schema refuses in a parsed settings file, beyond what
        `reading` says in general: (where, why, what it does: "file" (it ignores the
        whole file) | "hook" (it skips the hook at `where`) | "warns")."""
        return []

    def detect(self, request: Any) -> bool:
        raise NotImplementedError

    def marks(self, environ: Mapping[str, str]) -> bool:
        """Is one of the variables only this runtime sets (caller_env, version_env) set?"""
        for spec in (*self.caller_env, *self.version_env):
            name, _, prefix = spec.partition("=")
            value = environ.get(name)
            if value is not None and value.startswith(prefix):
                return True
        return False

    def could_send(self, request: Any) -> bool:
        """Once the hook's environment names this runtime (`marks`): is `request` one
        it sends, by its shape or its event name? (A runtime started inside another
        one's hook inherits that one's variables: the payload must agree.)"""
        if self.detect(request):
            return True
        return isinstance(request, dict) and request.get("hook_event_name") in self.events

    def parse(self, request: Any) -> Call:
        raise NotImplementedError

    def judge(self, call: Call, outcome: Outcome) -> Verdict:
        raise NotImplementedError

    def encode(self, call: Call, verdict: Verdict) -> tuple[bytes, bytes, int]:
        raise NotImplementedError

    def request_for(self, call: Call) -> dict[str, Any]:
        raise NotImplementedError

    def http_answer(
        self, status: int | None, body: bytes, error: str, content_type: str = "", request=b""
    ) -> tuple[bytes, bytes, int]:
        """An http hook's reply as the (stdout, stderr, exit code) of a command hook that
        this runtime reads the same way: `status` None when no reply came (`error` says
        why); `request` is the body that was posted. Only runtimes with `settings.http`
        have one."""
        raise NotImplementedError

    def http_post(
        self, spec: Any, body: bytes, environ: Mapping[str, str]
    ) -> tuple[int | None, bytes, str, str] | None:
        """The POST made this runtime's own way, when the generic one (urllib) would not
        send what it sends: (status, body, error, content type), as `post` in
        httphook/call.py returns; None to use the generic one."""
        return None

    def http_target(self, url: str) -> Any:
        """Where the generic POST goes and with what credentials, as this runtime's
        HTTP client reads the URL (base/whatwg.py's Target); None to send it as written."""
        return None

    def http_refusal(self, url: str) -> str:
        """Why the runtime would not post to this URL at all ("" when it would)."""
        return ""

    def http_check(
        self, spec: Any, environ: Mapping[str, str], request: bytes = b""
    ) -> tuple[bytes, bytes, int] | None:
        """What the command answers instead of posting, when the runtime would not post
        this hook's request at all (it skips the hook, or refuses its URL or headers):
        (stdout, stderr, exit code); None to post. `spec` is the hook's HttpSpec,
        `request` the body it would post."""
        return None

    def hook_file_argv(self, path: str) -> list[str]:
        """How the runtime runs the hook file at `path` (runtimes whose hooks are files:
        `settings.hook_files`): the argv it starts, the file's own path last."""
        raise NotImplementedError

    def runner_text(self) -> bytes:
        """The file install puts at `settings.runner` (runtimes that have one)."""
        raise NotImplementedError

    def http_problem(self, handler: dict) -> str:
        """Why install cannot wrap this http hook of the runtime's ("" when it can)."""
        return ""

    # A runtime is itself: equal only to itself, hashable (a key in tables).
    __eq__ = object.__eq__
    __hash__ = object.__hash__

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"


def version_text(text: str) -> str:
    """The first run of digits, dots and dashes in `text` that holds a digit, dashes as
    dots and without separators at its ends ("v1.0.102" -> "1.0.102", "2-1-332_x" ->
    "2.1.332"); "" when there is none."""
    run = ""
    for char in text + " ":
        if char.isdigit() or (run and char in ".-"):
            run += char
        elif run:
            break
    return run.replace("-", ".").strip(".")


def version_key(version: str) -> tuple[int, ...]:
    """A version for comparing: its dotted numbers ("2.1.332" -> (2, 1, 332))."""
    key = []
    for part in version.split("."):
        digits = ""
        for char in part:
            if not char.isdigit():
                break
            digits += char
        key.append(int(digits or 0))
    return tuple(key)


def in_force(since: str, version: str) -> bool:
    """Does a rule that holds `since` a version hold for `version`? An unknown version
    ("") is read as the newest."""
    return not since or not version or version_key(version) >= version_key(since)
