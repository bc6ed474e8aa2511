"""What a runtime's descriptor says about several hooks on one call, and where its hooks
are configured: the facts each runtime fills in (`Runtime.merge`, `Runtime.hook_sources`).

Only what a fact means lives here; each runtime's file holds its own values, with
where they come from (its shipped code, or what its real CLI did: tests/e2e). The
engine that applies a `MergeRule` is combine.py, loaded only by readers: these
classes are on the tap's recording path (facts.py says why they are plain).
"""

from __future__ import annotations

from hooktui.tap.runtimes.facts import Facts

TYPE_CHECKING = False  # not `typing`'s: the tap's recorder loads this (see facts.py)
if TYPE_CHECKING:
    from typing import Any

# The decisions that can carry a call, strongest first, when a runtime ranks them.
PRECEDENCE = ("deny", "defer", "ask", "allow")


class MergeRule(Facts):
    """How the runtime runs the hooks that match one call, and combines their answers.

    - `runs`: "parallel" (all start together) or "sequential" (one after another, in
      `order`, each getting the input as the earlier ones rewrote it when `chained`).
    - `order`: what "in order" means for this runtime (its sources' precedence, then
      the order of the files).
    - `stops_at`: sequential runtimes only: the votes after which the later hooks do not
      run ("deny": a refusal, or a failure that blocks).
    - `precedence`: the votes, strongest first; the strongest vote any hook gives is the
      call's decision ("any deny blocks").
    - `rewrite`: whose rewrite of the input (or output) the call runs with:
      "last_finished" (the hook that finished last), "last_leading" (the last to finish
      among hooks whose vote led when they finished), "last_in_order" (the last in
      `order` that gave one), "chained" (sequential: each later rewrite builds on the
      earlier ones; the last one stands), "ignored" (the runtime drops rewrites here).
    - `reason`: whose reason the model reads: "first_finished", "first_in_order" (of
      the hooks that gave the decision), or "joined" (every hook's reason, one a line,
      in order, even an allow's).
    - `dedup`: identical handlers on one event run once ("command", "name+command"),
      or a hook whose name (`Layout.name_key`) an earlier hook has, on any event, is
      skipped ("name"), or "" (each runs).
    - `call_keys`: request keys all hooks of one call share when the runtime gives no
      call id (grouping by the request then); `window_ms`: how far apart in time the
      hooks of one call may start (parallel) or follow each other (sequential).
    - `basis`: where the rule comes from (shipped code, the real CLI, docs), with the
      version; `unknown`: set instead when the rule is not known, saying why (the
      engine then reads "any deny blocks" and says so).
    """

    runs: str = "parallel"
    order: str = "its sources' precedence, then the order in each file"
    chained: bool = False
    stops_at: tuple[str, ...] = ()
    precedence: tuple[str, ...] = PRECEDENCE
    rewrite: str = "last_finished"
    reason: str = "first_finished"
    dedup: str = ""
    call_keys: tuple[str, ...] = ()
    window_ms: int = 2_000
    quirk: str = ""  # what the runtime does beyond the rule, in one clause
    basis: str = ""
    unknown: str = "not declared by this runtime's descriptor"

    @property
    def known(self) -> bool:
        return not self.unknown

    def summary(self) -> str:
        """One line: how the hooks of one call combine."""
        if self.unknown:
            return f"not known ({self.unknown}); read as: any deny blocks"
        runs = "one after another" if self.runs == "sequential" else "in parallel"
        if self.runs == "sequential" and self.stops_at:
            runs += f", stopping at the first {'/'.join(self.stops_at)}"
        rank = " > ".join(self.precedence)
        rewrite = _REWRITES.get(self.rewrite, self.rewrite)
        quirk = f"; {self.quirk}" if self.quirk else ""
        return f"run {runs}; {rank}; {rewrite}{quirk}"


_REWRITES = {
    "last_finished": "the rewrite of the hook that finishes last wins",
    "last_leading": "the rewrite of the last hook to finish while its decision leads wins",
    "last_in_order": "the last rewrite in configured order wins",
    "chained": "each hook sees the earlier rewrites; the last one stands",
    "ignored": "rewrites are ignored",
}


class HookSource(Facts):
    """One place a runtime reads hooks from, in the order it reads them.

    `scope`: "managed" | "admin" | "user" | "project" | "local" | "plugin" |
    "extension" | "policy" | "guest" (another runtime's file it also runs).
    `base`: what `path` is relative to: "project" (the project folder, then the top of
    its git work tree), "user" (the runtime's user folder: `Layout.user_dir` under
    HOME, or `$user_dir_env`), "home", or "/" (an absolute path). `path` may hold a
    glob (`*`). `env`: a variable that, when set, names the file or folder instead.
    `layout`: the runtime whose settings layout the file uses ("": this one's).
    `needs`: a condition for the runtime to load it (a trusted folder, a flag).
    `readable`: False for a source hooktui cannot read (held by a server); it is listed
    with `note` saying where it lives. `bad_file`: what an unparsable file here does,
    where that differs from the runtime's `reading.bad_file`.
    """

    scope: str
    path: str
    base: str = "project"
    env: str = ""
    layout: str = ""
    needs: str = ""
    note: str = ""
    readable: bool = True
    bad_file: str = ""  # what a file here that it cannot parse does, when not `reading.bad_file`


class SettingsReading(Facts):
    """What the runtime does with a settings file it cannot fully read: the inventory
    names each such file or hook with the runtime's consequence.

    `bad_file`: a file it cannot parse. `bad_hook`: a handler its schema refuses (no
    command, a field of the wrong type, an unknown handler type), and `bad_hook_file`:
    whether that costs every hook of the file, not just that one. `unknown_event`: an
    event name it does not know (`Layout.strict_events`: the whole file). `matcher`:
    how it reads a matcher: "claude" ("" or "*": every tool; only letters, digits, `_`
    and `|`: exact names; else a regular expression searched in the name),
    "regex" (a regular expression searched), "regex_or_literal" (the same, but one
    that cannot compile is compared literally), "fullmatch" (a regular expression
    matching the whole name), "glob" (an fnmatch pattern, or `re:` and a regular
    expression matching the whole name, either case-insensitive), "none" (no
    matchers). `bad_matcher`: what a matcher that cannot compile does.
    `basis`: where these come from (its schema, its code, its real CLI).
    """

    bad_file: str = "ignores the file"
    bad_hook: str = "skips that hook"
    bad_hook_file: bool = False
    unknown_event: str = "skips that event"
    matcher: str = "claude"
    bad_matcher: str = "never fires"
    setting_keys: tuple[str, ...] = ()  # keys under `hooks` that are settings, not events
    basis: str = ""


def handlers_of(data: Any, nested: bool = True):
    """(where, event, handler) for each handler object of a settings document's `hooks`
    (nested: hooks.<event>[i].hooks[j]; else hooks.<event>[i]), skipping what is not
    shaped so: for a runtime's own `settings_problems` checks."""
    hooks = data.get("hooks") if isinstance(data, dict) else None
    if not isinstance(hooks, dict):
        return
    for event, entries in hooks.items():
        if not isinstance(entries, list):
            continue
        for gi, entry in enumerate(entries):
            if not isinstance(entry, dict):
                continue
            if not nested:
                yield f"hooks.{event}[{gi}]", event, entry
                continue
            inner = entry.get("hooks")
            for hi, handler in enumerate(inner if isinstance(inner, list) else ()):
                if isinstance(handler, dict):
                    yield f"hooks.{event}[{gi}].hooks[{hi}]", event, handler


def is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)
