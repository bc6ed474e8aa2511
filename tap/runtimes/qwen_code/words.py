"""What Qwen Code's judge (__init__.py), its encoder and its http hook command share.

A module of its own so that none of them imports another for a word: the
recorder loads the judge, never the http hook command.
"""

# Where a block cannot stop anything (seen: PostToolUse; Claude's list for the rest).
NON_BLOCKING = {
    "PostToolUse",
    "PostToolUseFailure",
    "PostToolBatch",
    "SessionStart",
    "SessionEnd",
    "Notification",
    "SubagentStart",
}
# How the http hook command (qwen_code/http.py) starts its stderr when the POST failed or
# the reply was no answer: here, not there, as the recorder must not load http.py.
HTTP_FAILED = "hooktui http hook: "
