"""The scripts in python/examples run to completion."""

import os
import subprocess
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
EXAMPLES = os.path.join(os.path.dirname(HERE), "examples")


@unittest.skipUnless(os.path.isdir(EXAMPLES), "the examples are not beside the tests")
class ExamplesTest(unittest.TestCase):
    def test_examples_run(self) -> None:
        env = dict(os.environ)
        pkg = os.path.dirname(HERE)
        env["PYTHONPATH"] = pkg + os.pathsep + env.get("PYTHONPATH", "")
        for name, expect in (("rollout_loop.py", "success at step"), ("score_directory.py", "success rate"),
                             ("validate_generated.py", "a session refuses"),
                             ("vector_loop.py", "success rate 1.00"), ("live_loop.py", "episode 1: success True")):
            with self.subTest(example=name):
                proc = subprocess.run([sys.executable, os.path.join(EXAMPLES, name)], env=env,
                                      stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=300)
                out = proc.stdout.decode()
                self.assertEqual(proc.returncode, 0, out)
                self.assertIn(expect, out)


if __name__ == "__main__":
    unittest.main()
