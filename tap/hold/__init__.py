"""Breakpoints on hook calls: a dashboard holds a matching call before the runtime has its answer.

The tap and a dashboard (`hooktui watch --intercept EXPR`) talk over one Unix
socket in a private (0700) directory (place.py). The tap's hot path only
stats that path; the rest is loaded once a dashboard is there:

- `wire.py`: the frames both sides send (length-prefixed JSON);
- `budget.py`: how long a call may be held inside the runtime's timeout;
- `client.py`: the tap's side: offer the call, wait for a decision or the deadline;
- `answers.py`: a person's decision as the runtime's own answer (its `encode`);
- `server.py`: the dashboard's side, UI-free: matching, the queue, releasing.
"""
