"""`python -m hooktui.tap.httphook ...`: one http hook call (call.py)."""

import sys

from hooktui.tap.httphook.call import main

sys.exit(main(sys.argv[1:]))
