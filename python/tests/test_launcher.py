"""The bddl command a platform wheel installs: arguments, exit status and
SIGINT reach the bundled binary and come back unchanged."""

import json
import os
import signal
import subprocess
import sys
import tempfile
import unittest
from unittest import mock

import openbddl
from openbddl import _launcher

PKG_PARENT = os.path.dirname(os.path.dirname(os.path.abspath(openbddl.__file__)))

# A stand-in for bddl: prints its arguments as JSON, then exits with the
# status its first argument names; "wait" waits for SIGINT instead and
# exits 130 when it comes, as bddl does.
FAKE = r'''
import json, signal, sys, time
args = sys.argv[1:]
print(json.dumps(args), flush=True)
if args and args[0] == "wait":
    def stop(*_):
        print("SIGINT", flush=True)
        sys.exit(130)
    signal.signal(signal.SIGINT, stop)
    print("ready", flush=True)
    for _ in range(600):
        time.sleep(0.1)
    sys.exit(99)
sys.exit(int(args[0]) if args and args[0].isdigit() else 0)
'''

# Runs the launcher with the fake as its bundled binary.
RUN = "import sys, openbddl._launcher as l; l.bundled_binary = lambda: sys.argv[1]; sys.exit(l.main(sys.argv[2:]))"


@unittest.skipIf(os.name == "nt", "POSIX: the launcher execs the binary")
class LauncherTest(unittest.TestCase):
    def setUp(self) -> None:
        self.dir = tempfile.TemporaryDirectory()
        self.fake = os.path.join(self.dir.name, "bddl")
        with open(self.fake, "w") as f:
            f.write("#!%s\n%s" % (sys.executable, FAKE))
        os.chmod(self.fake, 0o755)
        self.env = dict(os.environ, PYTHONPATH=PKG_PARENT)

    def tearDown(self) -> None:
        self.dir.cleanup()

    def launch(self, *args: str, **kw: object) -> "subprocess.Popen[bytes]":
        return subprocess.Popen([sys.executable, "-c", RUN, self.fake] + list(args), stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, env=self.env, **kw)  # type: ignore[call-overload]

    def test_arguments_and_exit_status(self) -> None:
        cases = [
            ("no arguments", [], 0),
            ("status 1", ["1", "check", "--format", "json"], 1),
            ("status 2", ["2", "--kb", "a path/with spaces"], 2),
            ("odd arguments", ["42", "", "ünïcode", "-", "--", "a\nb", "'\"$HOME*"], 42),
        ]
        for name, args, code in cases:
            with self.subTest(name):
                p = self.launch(*args)
                out, err = p.communicate(timeout=60)
                self.assertEqual(p.returncode, code, err.decode())
                self.assertEqual(json.loads(out.decode().splitlines()[0]), args)

    def test_sigint(self) -> None:
        p = self.launch("wait")
        try:
            self.assertEqual(json.loads(p.stdout.readline()), ["wait"])  # type: ignore[union-attr]
            self.assertEqual(p.stdout.readline(), b"ready\n")  # type: ignore[union-attr]
            p.send_signal(signal.SIGINT)  # to the launcher's process: the binary, after exec
            out, err = p.communicate(timeout=60)
        finally:
            if p.poll() is None:
                p.kill()
                p.wait()
        self.assertEqual(out, b"SIGINT\n", err.decode())
        self.assertEqual(p.returncode, 130)

    def test_no_bundled_binary(self) -> None:
        p = subprocess.run([sys.executable, "-c", "import sys, openbddl._launcher as l; l.bundled_binary = lambda: None; "
                            "sys.exit(l.main([]))"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=self.env)
        self.assertEqual(p.returncode, 2)
        self.assertIn(b"platform wheel", p.stderr)


class ChildTest(unittest.TestCase):
    """Windows' way (a child process), tested with a stand-in Popen."""

    def test_status_and_ctrl_c(self) -> None:
        proc = mock.Mock()
        proc.wait.side_effect = [KeyboardInterrupt(), 3]  # Ctrl-C while waiting: keep waiting
        with mock.patch.object(_launcher.subprocess, "Popen", return_value=proc) as popen:
            self.assertEqual(_launcher._run_child(["bddl.exe", "check", "a b"]), 3)
        popen.assert_called_once_with(["bddl.exe", "check", "a b"])
        self.assertEqual(proc.wait.call_count, 2)


if __name__ == "__main__":
    unittest.main()
