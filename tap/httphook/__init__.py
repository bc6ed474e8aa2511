"""A runtime's `http` hooks as commands, so that the tap records them like any other hook.

The runtime runs a command hook instead, which makes the very POST the runtime
would have made and answers as the runtime would have read the reply (its
descriptor's `http_answer`). `install` puts this command behind the tap.

- call.py: the command (`python -m hooktui.tap.httphook ...`): the POST and its answer
- spec.py: the hook's settings as the command's arguments, written and read back

Why a command per call and not a recording proxy in front of the URL: a proxy
that is not running (a reboot, an idle exit) turns every call into "connection
refused", which the runtime reads as a non-blocking error: a guard's deny would
be lost. A command lives exactly as long as the call, like every other hook.
"""
