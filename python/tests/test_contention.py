"""_contention: whether the other processes leave a processor to poll on."""

import os
import time
import unittest

from openbddl._contention import Contention, machine_ticks, process_ticks


def proc_stat(name: str, utime: int, stime: int) -> bytes:
    return ("1234 (%s) S 1 1234 1234 0 -1 4194304 100 0 0 0 %d %d 0 0 20 0 5 0 100 1000 200"
            % (name, utime, stime)).encode()


class FakeProc:
    """/proc files from counters the test advances."""

    def __init__(self) -> None:
        self.busy, self.total, self.own, self.peer = 1000, 5000, 10, 10
        self.peer_gone = self.no_proc = False

    def read(self, path: str):
        if self.no_proc:
            return None
        if path == "/proc/stat":
            return b"cpu %d 0 0 %d 0 0 0 0 0 0\ncpu0 1 2 3 4\n" % (self.busy, self.total - self.busy)
        if path == "/proc/self/stat":
            return proc_stat("python3", self.own, 0)
        if path == "/proc/77/stat":
            return None if self.peer_gone else proc_stat("bddl", self.peer, 0)
        return None


class ContentionTest(unittest.TestCase):
    def test_machine_ticks(self) -> None:
        self.assertEqual(machine_ticks(b"cpu  100 5 50 1000 20 3 7 15 0 0\ncpu0 1\n"), (180, 1200))
        self.assertEqual(machine_ticks(b"cpu 1 2 3 4 5\n"), (6, 15))  # an old kernel
        for bad in (b"cpu0 1 2 3 4 5\n", b"cpu 1 2 x 4 5\n", b"cpu 1 2\n", b""):
            self.assertIsNone(machine_ticks(bad), bad)

    def test_process_ticks(self) -> None:
        self.assertEqual(process_ticks(proc_stat("bddl", 250, 40)), 290)
        self.assertEqual(process_ticks(proc_stat("a (b) c) d", 250, 40)), 290)
        self.assertIsNone(process_ticks(b"1234 (bddl) S 1 2 3"))
        self.assertIsNone(process_ticks(proc_stat("x", 250, 40).replace(b" 250 ", b" u ")))

    def test_decisions(self) -> None:
        """Over a second of two processors (200 ticks), polling stops when
        the other processes hold more than half of one; the two sides'
        own time never counts; a peer not read counts as the others'; on
        one processor never; without /proc, or too soon, not known."""
        cases = [
            # name, cpus, busy, own, peer, elapsed, peer_gone, no_proc, want
            ("both sides polling, nothing else", 2, 190, 100, 85, 200, False, False, False),
            ("a little else", 2, 190, 80, 70, 200, False, False, False),
            ("another process holds a processor", 2, 200, 50, 50, 200, False, False, True),
            ("peer unreadable", 2, 190, 100, 85, 200, True, False, True),
            ("one processor", 1, 90, 50, 40, 100, False, False, True),
            ("eight processors, six others", 8, 790, 100, 90, 800, False, False, False),
            ("eight processors, seven others", 8, 800, 50, 50, 800, False, False, True),
            ("too soon", 2, 0, 0, 0, 19, False, False, None),
            ("no /proc", 2, 10, 0, 0, 200, False, True, None),
        ]
        for name, cpus, busy, own, peer, elapsed, gone, no_proc, want in cases:
            f = FakeProc()
            f.no_proc = no_proc
            c = Contention(77, read=f.read, cpus=cpus)
            f.busy += busy
            f.total += elapsed
            f.own += own
            f.peer += peer
            f.peer_gone = gone
            self.assertEqual(c.busy(), want, name)

    def test_a_short_look_goes_on(self) -> None:
        """A call less than a tenth of a second after the last look is not
        decided, and the look goes on: the next call spans both."""
        f = FakeProc()
        c = Contention(77, read=f.read, cpus=2)
        f.total, f.busy = f.total + 15, f.busy + 15  # 15 of 20 ticks: too soon
        self.assertIsNone(c.busy())
        self.assertTrue(c.available)
        f.total, f.busy = f.total + 185, f.busy + 185  # 200 in all, all busy, none ours
        self.assertTrue(c.busy())
        f.total, f.busy, f.own = f.total + 200, f.busy + 200, f.own + 200
        self.assertFalse(c.busy())  # measured from the last decided look
        f.no_proc = True
        self.assertIsNone(c.busy())
        self.assertFalse(c.available)

    def test_live(self) -> None:
        """On this machine, two looks a little apart are known where /proc
        is (Linux), and never where it is not."""
        c = Contention(os.getppid())
        have = os.path.exists("/proc/stat")
        for _ in range(200):  # until the ticks move (hundredths of a second)
            if c.busy() is not None:
                self.assertTrue(have)
                return
            time.sleep(0.005)
        self.assertFalse(have, "never known with /proc/stat")

