"""The client in Python's terms (issue 32): typed options, a sample's
header in a session, typed truth values, and errors that say what to do."""

import json
import os
import tempfile
import typing
import unittest

import openbddl

from .helpers import ACTIVITY


class OptionsTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        cls.eng = openbddl.Engine()

    @classmethod
    def tearDownClass(cls) -> None:
        cls.eng.close()

    def test_sample_header_opens_a_session(self) -> None:
        # The natural loop: sample, open a session on the sample's
        # header, step. The header declares 1 step; a session is open-ended.
        rec = self.eng.sample("cleaning_shoes")[0]
        header = rec.episode[0]
        if isinstance(header, str):
            header = json.loads(header)
        self.assertEqual(header.get("steps"), 1)
        with self.eng.session("cleaning_shoes", header=header) as s:
            for _ in range(3):
                r = s.step({})
            self.assertEqual(r.step, 2)
            self.assertIn(r.goal, ("true", "false", "unknown"))

    def test_unknown_option_is_a_type_error(self) -> None:
        for call in (lambda: self.eng.session(ACTIVITY, hodl=3),  # type: ignore[call-arg]
                     lambda: self.eng.check("x.jsonl", per_stp=True),  # type: ignore[call-arg]
                     lambda: self.eng.check_many("x/", negaton="strict")):  # type: ignore[call-arg]
            with self.assertRaises(TypeError):
                call()

    def test_option_types(self) -> None:
        cases = [
            (TypeError, "hold must be an int", dict(hold="2")),
            (TypeError, "hold must be an int", dict(hold=True)),
            (ValueError, "hold must be at least 1", dict(hold=0)),
            (TypeError, "lenient must be a bool", dict(lenient="yes")),
            (TypeError, "transitions must be a bool", dict(transitions="yes")),
            (ValueError, 'negation must be "reference" or "strict"', dict(negation="sometimes")),
            (TypeError, "geometry: unknown key 'touch'", dict(geometry={"touch": 0.1})),
            (TypeError, "geometry['horizontal_rays'] must be an int", dict(geometry={"horizontal_rays": 2.5})),
        ]
        for exc, msg, kw in cases:
            with self.subTest(kw=kw):
                with self.assertRaises(exc) as cm:
                    self.eng.session(ACTIVITY, **kw)  # type: ignore[arg-type]
                self.assertIn(msg, str(cm.exception))
        with self.eng.session(ACTIVITY, hold=2, negation="strict", geometry={"touch_tolerance": 0.01}) as s:
            self.assertFalse(s.step({}).success)

    def test_truth_is_typed(self) -> None:
        hints = typing.get_type_hints(openbddl.StepResult)
        self.assertEqual(hints["goal"], openbddl.Truth)
        if hasattr(typing, "get_args"):
            self.assertEqual(set(typing.get_args(openbddl.Truth)), {"true", "false", "unknown"})
        self.assertEqual(typing.get_type_hints(openbddl.InitResult)["truth"], openbddl.Truth)
        self.assertEqual(typing.get_type_hints(openbddl.Literal)["value"], openbddl.Truth)

    def test_missing_binary(self) -> None:
        for binary in ("/nonexistent/bddl", os.devnull):
            with self.subTest(binary=binary):
                with self.assertRaises(openbddl.EngineError) as cm:
                    openbddl.Engine(binary=binary).start()
                self.assertEqual(cm.exception.code, "no_binary")
                self.assertIn(binary, str(cm.exception))

    def test_bad_kb_detail_in_the_exception(self) -> None:
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, "synsets.yaml"), "w") as f:
                f.write("x: [\n")
            with openbddl.Engine(kb=d) as eng:
                with self.assertRaises(openbddl.EngineError) as cm:
                    eng.session(ACTIVITY)
        e = cm.exception
        self.assertEqual(e.code, "kb")
        self.assertIn(d, str(e))
        # The reason, not only a count of errors printed elsewhere.
        self.assertNotRegex(str(e), r"has \d+ data errors?$")
        self.assertGreater(len(str(e)), len("knowledge base %s does not load: " % d) + 10)

    def test_messages_in_python_terms(self) -> None:
        with self.assertRaises(openbddl.EngineError) as cm:
            self.eng.call("session.open", {"activity": ACTIVITY, "negation": "sometimes"})
        msg = str(cm.exception)
        self.assertNotIn("--", msg)
        self.assertIn("negation=", msg)
        self.assertIn("--negation", cm.exception.data["message"])
        with self.assertRaises(openbddl.EngineError) as cm:
            self.eng.session("no_such_activity")
        self.assertNotIn("--activities", str(cm.exception))
        self.assertIn("activities=", str(cm.exception))

    def test_text_passed_as_a_name(self) -> None:
        src = "(define (problem p-0) (:domain omnigibson))"
        for call in (lambda: self.eng.session(src), lambda: self.eng.check("x.jsonl", activity=src)):
            with self.assertRaises(ValueError) as cm:
                call()
            self.assertIn("definition=", str(cm.exception))


if __name__ == "__main__":
    unittest.main()
