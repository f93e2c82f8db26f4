"""LiveChecker: repeated ticks, counted numbers, resets, threads, fork."""

import os
import threading
import unittest

import openbddl

from .helpers import ACTIVITY, example_episodes, read_episode
from . import test_concurrency


class LiveTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        cls.eng = openbddl.Engine()
        cls.header, cls.steps = read_episode([p for p in example_episodes() if "cleaning_shoes" in p][0])

    @classmethod
    def tearDownClass(cls) -> None:
        cls.eng.close()

    def checker(self) -> openbddl.LiveChecker:
        c = openbddl.LiveChecker(self.eng, self.header["activity"], header=self.header)
        self.addCleanup(c.close)
        return c

    def test_ticks_agree_with_a_session(self) -> None:
        c = self.checker()
        with self.eng.session(self.header["activity"], header=self.header) as s:
            for st in self.steps:
                want = s.step(st)
                got = c.tick({k: v for k, v in st.items() if k != "step"}, st["step"])
                self.assertEqual(got.record, want.record)
        self.assertEqual(c.number, self.steps[-1]["step"])

    def test_repeated_tick_returns_the_last_result(self) -> None:
        c = self.checker()
        r0 = c.tick(self.steps[0], 0)
        again = c.tick({"facts": [["nonsense"]]}, 0)  # not sent: the same tick
        self.assertIs(again, r0)
        r1 = c.tick(self.steps[1])  # the step's own number
        self.assertEqual(r1.step, self.steps[1]["step"])
        self.assertIs(c.tick(self.steps[1]), r1)
        self.assertEqual(c.tick().step, r1.step + 1)  # counted
        with self.assertRaises(openbddl.StepError):
            c.tick({}, 0)  # going back is refused, as check refuses it

    def test_counted_from_zero(self) -> None:
        c = openbddl.LiveChecker(self.eng, ACTIVITY)
        self.addCleanup(c.close)
        self.assertEqual([c.tick().step for _ in range(3)], [0, 1, 2])

    def test_reset(self) -> None:
        c = self.checker()
        for st in self.steps:
            last = c.tick(st)
        first = c.session.id
        c.reset()
        self.assertIsNone(c.last)
        self.assertNotEqual(c.session.id, first)
        redo = [c.tick(st) for st in self.steps]
        self.assertEqual(redo[-1].record, last.record)
        # A new header becomes the default for later resets.
        h = dict(self.header, closed_world=False)
        c.reset(h)
        c.reset()
        self.assertEqual(c.header, h)
        with self.assertRaises(openbddl.EngineError):
            openbddl.LiveChecker(self.eng, "no_such_activity_here")

    def test_closed(self) -> None:
        c = self.checker()
        c.tick(self.steps[0])
        c.close()
        c.close()
        with self.assertRaises(openbddl.EngineError) as cm:
            c.tick(self.steps[1])
        self.assertEqual(cm.exception.code, "closed")

    def test_threads_counted(self) -> None:
        """Threads ticking counted numbers share one clock: every number is
        applied once, none fails."""
        c = openbddl.LiveChecker(self.eng, ACTIVITY)
        self.addCleanup(c.close)
        steps = []
        errors = []
        lock = threading.Lock()

        def work() -> None:
            try:
                for _ in range(25):
                    r = c.tick()
                    with lock:
                        steps.append(r.step)
            except Exception as e:
                errors.append(e)

        threads = [threading.Thread(target=work) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        self.assertEqual(errors, [])
        self.assertEqual(sorted(steps), list(range(100)))

    def test_threads_same_number(self) -> None:
        """Threads ticking the same sequence (a runtime calling a node twice
        per tick from two threads): never an error, one result per number."""
        c = openbddl.LiveChecker(self.eng, ACTIVITY)
        self.addCleanup(c.close)
        results = [[] for _ in range(3)]
        errors = []
        gate = threading.Barrier(3)

        def work(w: int) -> None:
            try:
                for k in range(30):
                    gate.wait(30)
                    results[w].append(c.tick({}, k))
            except Exception as e:
                errors.append(e)

        threads = [threading.Thread(target=work, args=(w,)) for w in range(3)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        self.assertEqual(errors, [])
        for k in range(30):
            self.assertIs(results[0][k], results[1][k])
            self.assertIs(results[0][k], results[2][k])
            self.assertEqual(results[0][k].step, k)


@unittest.skipUnless(hasattr(os, "fork"), "no fork on this platform")
class LiveForkTest(test_concurrency.ForkTest):
    def test_forked_worker(self) -> None:
        """A checker made in the parent ticks in a forked worker (on the
        worker's own server, from a fresh episode), while a thread held
        its lock at the fork; the parent's episode goes on untouched."""
        with openbddl.Engine() as eng:
            c = openbddl.LiveChecker(eng, ACTIVITY)
            c.tick()
            parent_session = c.session.id
            hold = threading.Event()
            release = threading.Event()

            def holder() -> None:
                with c._lock:
                    hold.set()
                    release.wait(30)

            t = threading.Thread(target=holder)
            t.start()
            hold.wait(30)

            def child() -> int:
                r = [c.tick().step for _ in range(3)]
                if r != [0, 1, 2]:
                    return 3
                if c.tick({}, 2).step != 2:
                    return 4
                c.reset()
                if c.tick().step != 0:
                    return 5
                c.close()
                eng.close()
                return 0

            try:
                self.assertEqual(self._in_child(child), 0)
            finally:
                release.set()
                t.join(30)
            self.assertEqual(c.session.id, parent_session)
            self.assertEqual(c.tick().step, 1)
            c.close()

    # The inherited ForkTest cases run in test_concurrency already.
    test_child_starts_its_own_server = None  # type: ignore[assignment]
    test_server_dies_with_its_parent = None  # type: ignore[assignment]


if __name__ == "__main__":
    unittest.main()
