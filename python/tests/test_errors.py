"""The mapping of error responses to exceptions, and a server that
outlives bad requests."""

import os
import unittest
from unittest import mock

import openbddl

from .helpers import ACTIVITY


class ErrorTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        cls.eng = openbddl.Engine()

    @classmethod
    def tearDownClass(cls) -> None:
        cls.eng.close()

    def test_definition_error(self) -> None:
        src = "(define (problem p-0)\n  (:domain omnigibson)\n  (:objects apple.n.01_1 - apple.n.01)\n  (:init (ontop apple.n.01_1)\n"
        for call in (lambda: self.eng.session(definition=src, name="gen.bddl"),
                     lambda: self.eng.explain(src, name="gen.bddl"),
                     lambda: self.eng.sample(src)):
            with self.assertRaises(openbddl.DefinitionError) as cm:
                call()
            e = cm.exception
            self.assertIsInstance(e, openbddl.EngineError)
            self.assertIn(e.file, ("gen.bddl", "definition.bddl"))
            self.assertGreater(e.line, 0)
            self.assertGreater(e.column, 0)
            self.assertTrue(e.code)
            self.assertTrue(e.findings)

    def test_bad_step(self) -> None:
        with self.eng.session(ACTIVITY) as s:
            s.step({"step": 5})
            with self.assertRaises(openbddl.StepError) as cm:
                s.step({"step": 5})
            e = cm.exception
            self.assertEqual((e.code, e.field, e.step), ("bad_step", "step", 5))
            self.assertGreater(e.line, 0)
        with self.eng.session(ACTIVITY, lenient=True) as s:
            with self.assertRaises(openbddl.StepError) as cm:
                s.run([{"step": 0}, {"step": 1, "objects": {"no_such.n.01_1": {}}}])
            self.assertEqual(cm.exception.index, 1)
            r = s.step({"step": 2})
            self.assertFalse(r.success)
            self.assertEqual(r.record["skipped_steps"], 1)

    def test_engine_errors(self) -> None:
        cases = [
            ("unknown_method", lambda: self.eng.call("frobnicate", {})),
            ("invalid_params", lambda: self.eng.call("explain", {"activty": ACTIVITY})),
            ("invalid_params", lambda: self.eng.call("session.open", {"activity": ACTIVITY, "negation": "sometimes"})),
            ("not_found", lambda: self.eng.session("no_such_activity")),
            ("unknown_session", lambda: self.eng.call("session.step", {"session": "s999", "step": {"step": 0}})),
            ("not_found", lambda: self.eng.check("/no/such/episode.jsonl")),
        ]
        for code, call in cases:
            with self.subTest(code=code):
                with self.assertRaises(openbddl.EngineError) as cm:
                    call()
                self.assertEqual(cm.exception.code, code)
                self.assertNotIsInstance(cm.exception, openbddl.DefinitionError)
        # The server is still there.
        self.assertTrue(self.eng.explain(ACTIVITY).goal)

    def test_nan_is_an_error_not_a_hang(self) -> None:
        with self.eng.session(ACTIVITY) as s:
            with self.assertRaises(openbddl.EngineError) as cm:
                s.step(objects={"mug.n.04_1": {"temperature": float("nan")}})
            self.assertEqual(cm.exception.code, "parse_error")
            self.assertEqual(s.step({"step": 1}).step, 1)

    def test_closed_session(self) -> None:
        s = self.eng.session(ACTIVITY)
        s.close()
        with self.assertRaises(openbddl.EngineError) as cm:
            s.step()
        self.assertEqual(cm.exception.code, "unknown_session")
        s.close()  # closing twice is harmless

    def test_closed_engine(self) -> None:
        eng = openbddl.Engine()
        eng.close()
        with self.assertRaises(openbddl.EngineError) as cm:
            eng.explain(ACTIVITY)
        self.assertEqual(cm.exception.code, "closed")

    def test_server_death_is_an_error_then_a_restart(self) -> None:
        eng = openbddl.Engine()
        try:
            s = eng.session(ACTIVITY)
            eng._server.proc.kill()
            eng._server.proc.wait()
            with self.assertRaises(openbddl.EngineError) as cm:
                s.step()
            self.assertIn(cm.exception.code, ("server_exited", "unknown_session"))
            # A new server serves the engine.
            self.assertTrue(eng.explain(ACTIVITY).goal)
        finally:
            eng.close()

    def test_no_binary(self) -> None:
        old = os.environ.get("BDDL_BIN")
        os.environ["BDDL_BIN"] = "/no/such/bddl"
        try:
            # Without a bundled binary (an installed platform wheel has one,
            # which comes before $BDDL_BIN).
            with mock.patch.object(openbddl.binary, "bundled_binary", return_value=None), \
                    self.assertRaises(openbddl.EngineError) as cm:
                openbddl.Engine().start()
            self.assertEqual(cm.exception.code, "no_binary")
        finally:
            if old is None:
                del os.environ["BDDL_BIN"]
            else:
                os.environ["BDDL_BIN"] = old

    def test_wrong_protocol(self) -> None:
        import tempfile
        with tempfile.NamedTemporaryFile("w", suffix=".sh", delete=False) as f:
            f.write('#!/bin/sh\necho \'{"protocol": 99, "version": "x"}\'\ncat >/dev/null\n')
        os.chmod(f.name, 0o755)
        try:
            with self.assertRaises(openbddl.EngineError) as cm:
                openbddl.Engine(binary=f.name).start()
            self.assertEqual(cm.exception.code, "protocol")
        finally:
            os.unlink(f.name)


if __name__ == "__main__":
    unittest.main()
