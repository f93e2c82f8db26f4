"""Threads sharing an engine, and forked children using an inherited one."""

import os
import threading
import time
import unittest

import openbddl

from .helpers import ACTIVITY, example_episodes, read_episode


class ThreadTest(unittest.TestCase):
    def test_threads_share_an_engine(self) -> None:
        eps = [p for p in example_episodes() if p.endswith(".jsonl")]
        with openbddl.Engine() as eng:
            want = {}
            for p in eps:
                header, steps = read_episode(p)
                with eng.session(header=header, transitions=False) as s:
                    want[p] = [s.step(st).record for st in steps]
            got = {}
            errors = []

            def work(path: str) -> None:
                try:
                    header, steps = read_episode(path)
                    for _ in range(3):
                        with eng.session(header=header, transitions=False) as s:
                            got[path] = [s.step(st).record for st in steps]
                        eng.explain(ACTIVITY)
                except Exception as e:  # reported below
                    errors.append(e)

            threads = [threading.Thread(target=work, args=(p,)) for p in eps for _ in range(2)]
            for t in threads:
                t.start()
            for t in threads:
                t.join(120)
            self.assertEqual(errors, [])
            self.assertEqual(got, want)

    def test_session_shared_by_threads_keeps_order(self) -> None:
        with openbddl.Engine() as eng, eng.session(ACTIVITY) as s:
            steps = []
            lock = threading.Lock()

            def work() -> None:
                for _ in range(25):
                    r = s.step()
                    with lock:
                        steps.append(r.step)

            threads = [threading.Thread(target=work) for _ in range(4)]
            for t in threads:
                t.start()
            for t in threads:
                t.join(60)
            self.assertEqual(sorted(steps), list(range(100)))


@unittest.skipUnless(hasattr(os, "fork"), "no fork on this platform")
class ForkTest(unittest.TestCase):
    def _in_child(self, fn) -> int:
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:  # child
            os.close(r)
            code = 1
            try:
                code = fn()
            except BaseException as e:  # the parent reads the message
                os.write(w, repr(e).encode()[:4000])
            finally:
                os._exit(code)
        os.close(w)
        msg = b""
        while True:
            chunk = os.read(r, 4096)
            if not chunk:
                break
            msg += chunk
        os.close(r)
        _, status = os.waitpid(pid, 0)
        self.assertEqual(msg, b"")
        return os.waitstatus_to_exitcode(status) if hasattr(os, "waitstatus_to_exitcode") else status >> 8

    def test_child_starts_its_own_server(self) -> None:
        with openbddl.Engine() as eng:
            s = eng.session(ACTIVITY)
            s.step()
            parent_pid = eng._server.proc.pid

            def child() -> int:
                # The inherited session belongs to the parent's server.
                try:
                    s.step()
                    return 3
                except openbddl.EngineError as e:
                    if e.code != "unknown_session":
                        return 4
                s2 = eng.session(ACTIVITY)
                r = s2.step()
                if r.step != 0 or eng._server.proc.pid == parent_pid:
                    return 5
                eng.close()
                return 0

            self.assertEqual(self._in_child(child), 0)
            # The parent's engine and session are untouched.
            self.assertEqual(eng._server.proc.pid, parent_pid)
            self.assertEqual(s.step().step, 1)

    def test_server_dies_with_its_parent(self) -> None:
        """A process that starts an engine and dies (its forked child still
        holding the pipe) takes the server with it."""
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(r)
            try:
                eng = openbddl.Engine()
                eng.start()
                os.write(w, str(eng._server.proc.pid).encode())
            finally:
                os._exit(0)  # no cleanup: as if killed
        os.close(w)
        server_pid = int(os.read(r, 64) or b"0")
        os.close(r)
        os.waitpid(pid, 0)
        self.assertGreater(server_pid, 0)
        deadline = time.time() + 10
        while time.time() < deadline:
            try:
                os.kill(server_pid, 0)
            except ProcessLookupError:
                return
            # A zombie re-parented to init is gone for our purposes.
            try:
                with open("/proc/%d/stat" % server_pid) as f:
                    if f.read().split(")")[-1].split()[0] == "Z":
                        return
            except OSError:
                return
            time.sleep(0.1)
        self.fail("bddl serve %d still runs 10 s after its parent died" % server_pid)


if __name__ == "__main__":
    unittest.main()
