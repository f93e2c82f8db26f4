"""The ``bddl`` command a platform wheel installs: it runs the bundled
binary with the user's arguments, and its exit status and signals are the
binary's own.

On POSIX the launcher replaces itself with the binary (``os.execv``): the
process the shell started *is* bddl, so signals reach it directly and its
exit status is the command's. Windows has no exec that keeps the process,
so the binary runs as a child: a Ctrl-C reaches it through the shared
console (the launcher ignores its own KeyboardInterrupt and keeps waiting),
and the launcher exits with the child's status.
"""

import os
import subprocess
import sys
from typing import List, Optional

from .binary import bundled_binary


def main(argv: Optional[List[str]] = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    exe = bundled_binary()
    if exe is None:
        sys.stderr.write("bddl: this openbddl install carries no bddl binary (%s is missing): install a platform "
                         "wheel of openbddl, or install bddl with Go (go install ./cmd/bddl)\n"
                         % os.path.join(os.path.dirname(os.path.abspath(__file__)), "_bin"))
        return 2
    if os.name != "nt":
        sys.stdout.flush()
        sys.stderr.flush()
        os.execv(exe, [exe] + args)  # does not return
    return _run_child([exe] + args)


def _run_child(cmd: List[str]) -> int:
    proc = subprocess.Popen(cmd)
    while True:
        try:
            return proc.wait()
        except KeyboardInterrupt:
            continue  # the child got the Ctrl-C too; its status decides


if __name__ == "__main__":
    sys.exit(main())
