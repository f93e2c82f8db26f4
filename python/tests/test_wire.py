"""The client's own JSON encoding and decoding agree with the json module."""

import json
import math
import os
import unittest

import openbddl
from openbddl.engine import _dumps, _jsonable, _loads

from .helpers import ACTIVITY


class WireTest(unittest.TestCase):
    def test_dumps_equals_json_dumps(self) -> None:
        class Arr:  # what numpy arrays offer
            def tolist(self):
                return [1.0, 2.5]

        values = [
            {"step": 3, "facts": [["ontop", "a.n.01_1", "b.n.01_1"]], "false": []},
            {"objects": {"mug.n.04_1": {"aabb": Arr(), "pos": (0.1, -2e-9, 1e22)}}},
            {"é": "ü\u2028\"\\\n", 1: None, "t": True, "x": math.inf, "n": float("nan")},
            [{"step": k} for k in range(5)],
            {"s": {3, 1, 2}},
            "plain", 5, 2.5, None,
        ]
        for v in values:
            want = json.dumps(v, default=_jsonable, separators=(",", ":"), allow_nan=True)
            self.assertEqual(_dumps(v), want)

    def test_dumps_refuses_what_json_refuses(self) -> None:
        with self.assertRaises(TypeError):
            _dumps({"x": object()})
        loop: dict = {}
        loop["self"] = loop
        with self.assertRaises(ValueError):
            _dumps(loop)

    def test_loads_equals_json_loads(self) -> None:
        for line in [b'{"id":1,"result":{"success":false,"score":0.5}}\n', b'{"id":"a","error":{"code":"x"}}',
                     b'{"id":2,"result":{"s":"\\u00e9\\n"}}  \r\n', '{"é":1}\n'.encode()]:
            self.assertEqual(_loads(line), json.loads(line))

    def test_loads_errors_as_json(self) -> None:
        for line in [b'{"id":1}{"id":2}\n', b'{"id":1,\n', b'not json\n', b'\n']:
            with self.assertRaises(ValueError, msg=line):
                _loads(line)


if __name__ == "__main__":
    unittest.main()


class SpinReaderTest(unittest.TestCase):
    def reader(self, chunks, spin):
        import os
        import threading
        import time

        from openbddl.engine import _SpinReader

        r, w = os.pipe()
        self.addCleanup(os.close, r)

        def write() -> None:
            for c in chunks:
                time.sleep(0.002)  # each chunk after the reader waits
                os.write(w, c)
            os.close(w)

        t = threading.Thread(target=write)
        t.start()
        self.addCleanup(t.join)
        return _SpinReader(r, spin)

    def test_lines_as_a_file_reads_them(self) -> None:
        import io

        long = b"x" * 200000 + b"\n"
        chunks = [b'{"a":1}\n{"b"', b':2}\n', long[:70000], long[70000:], b"\n", b"tail without newline"]
        want = []
        f = io.BytesIO(b"".join(chunks))
        while True:
            line = f.readline()
            want.append(line)
            if not line:
                break
        for spin in (0.0, 1e-4, 0.05):
            rd = self.reader(chunks, spin)
            got = []
            while True:
                line = rd.readline()
                got.append(line)
                if not line:
                    break
            self.assertEqual(got, want, "spin %r" % spin)

    def test_no_polling_on_a_busy_machine(self) -> None:
        """_machine_busy agrees with the load average where it is far from
        the threshold (processors plus one); a busy reader's waits sleep at
        once and still read every line."""
        import os

        from openbddl import engine

        try:
            load = os.getloadavg()[0]
        except (OSError, AttributeError):
            self.skipTest("no load average here")
        limit = (os.cpu_count() or 1) + 1
        if abs(load - limit) >= 3:
            self.assertEqual(engine._machine_busy(), load > limit)
        rd = self.reader([b"a\n", b"b\n"], 0.05)
        rd.busy, rd.checked = True, float("inf")  # found busy; not asked again
        self.assertEqual([rd.readline(), rd.readline(), rd.readline()], [b"a\n", b"b\n", b""])

    def test_contention_decides_polling(self) -> None:
        """The reader polls as the contention look says; an undecided look
        (too short) keeps the last answer and looks again a tenth of a
        second later; without /proc the load average decides."""
        from openbddl import engine

        class Stub:
            def __init__(self, answers, available=True):
                self.answers, self.available = list(answers), available

            def busy(self):
                return self.answers.pop(0)

        rd = self.reader([b"a\n"], 0.05)
        rd.contention = Stub([True, None, False])
        self.assertTrue(rd._busy())
        self.assertEqual(rd.every, 1.0)
        rd.busy = True
        self.assertTrue(rd._busy())  # undecided: the last answer
        self.assertEqual(rd.every, 0.1)
        self.assertFalse(rd._busy())
        self.assertEqual(rd.every, 1.0)
        rd.contention = Stub([None], available=False)
        self.assertEqual(rd._busy(), engine._machine_busy())
        rd.checked = float("inf")  # not asked again
        self.assertEqual(rd.readline(), b"a\n")

    def test_engine_spin_bounds(self) -> None:
        import openbddl

        for bad in (-1e-6, 2.0):
            with self.assertRaises(ValueError):
                openbddl.Engine(spin=bad)


class WriteNowTest(unittest.TestCase):
    def test_partial_writes_are_finished(self) -> None:
        """write_now writes all of a request through a pipe that takes a
        few bytes a call, in order, and a session still steps after it."""
        from unittest import mock

        from openbddl import engine as engine_mod

        real = os.write
        calls = []

        def short_write(fd, data):
            calls.append(len(data))
            return real(fd, bytes(data[:7]))

        with openbddl.Engine(timeout=20) as eng:  # a lost tail fails, not hangs
            with eng.session(ACTIVITY) as s:
                s.step({"step": 0})
                with mock.patch.object(engine_mod.os, "write", short_write):
                    r = s.step({"step": 1})
                self.assertEqual(r.step, 1)
        self.assertGreater(len(calls), 3)
        self.assertEqual(calls, sorted(calls, reverse=True))
