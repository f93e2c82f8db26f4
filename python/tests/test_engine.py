"""Every client call of openbddl.Engine and Session against a real server."""

import json
import os
import pathlib
import subprocess
import tempfile
import unittest

import openbddl
from openbddl import results

from .helpers import ACTIVITY, EXAMPLES, REPO, example_episodes, read_episode


def bddl(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([openbddl.find_binary()] + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          cwd=REPO, check=False)


def check_records(path: str, *flags: str) -> list:
    proc = bddl("check", "--format", "json", "--no-progress", "--episode", path, *flags)
    return [json.loads(l) for l in proc.stdout.decode().splitlines() if l.strip()]


class EngineTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        cls.eng = openbddl.Engine()
        cls.eng.start()

    @classmethod
    def tearDownClass(cls) -> None:
        cls.eng.close()

    def test_version(self) -> None:
        self.assertTrue(self.eng.version)

    def test_session_matches_check(self) -> None:
        """Each step's result is the record bddl check gives for the whole
        episode at its last step (compared at the last step)."""
        for path in example_episodes():
            for transitions, flags in ((False, ()), (True, ("--transitions",))):
                with self.subTest(episode=path, transitions=transitions):
                    header, steps = read_episode(path)
                    want = check_records(path, *flags)[0]
                    with self.eng.session(header=header, transitions=transitions, name=path) as s:
                        for st in steps:
                            r = s.step(st, explain=True)
                    self.assertEqual(r.record, want)
                    self.assertEqual(r.success, want["success"])
                    self.assertEqual(r.score, want["score"])
                    self.assertEqual(r.challenge_score, want["challenge_score"])
                    self.assertEqual(r.goal, want["goal_at_end"])
                    self.assertEqual([l.ground for l in r.unsatisfied], [l["ground"] for l in want.get("unsatisfied", [])])
                    self.assertEqual([f.rule for f in r.firings], [f["rule"] for f in want.get("firings", [])])

    def test_no_spin(self) -> None:
        """spin=0 (no polling on either side, bddl serve --spin 0) gives the
        same records."""
        path = example_episodes()[0]
        header, steps = read_episode(path)
        with openbddl.Engine(spin=0) as eng:
            with eng.session(header=header, transitions=False, name=path) as s:
                got = [s.step(st).record for st in steps]
        with self.eng.session(header=header, transitions=False, name=path) as s:
            want = [s.step(st).record for st in steps]
        self.assertEqual(got, want)

    def test_run_one_round_trip(self) -> None:
        path = os.path.join(EXAMPLES, "cleaning_shoes", "episodes", "success.jsonl")
        header, steps = read_episode(path)
        header.pop("steps", None)
        want = check_records(path)[0]
        with self.eng.session(header=header, transitions=False, name=path) as s:
            run = s.run(steps, goals=True, explain=True)
        self.assertIsInstance(run, results.RunResult)
        self.assertEqual(run.steps, len(steps))
        self.assertEqual(len(run.goals), len(steps))
        self.assertEqual(run.goals[-1], want["goal_at_end"])
        self.assertEqual(run.result.record, want)

    def test_lean_record_is_the_default(self) -> None:
        """step and run give the lean record unless explain is asked for:
        the same outcome as the full record, without the literal lists."""
        path = os.path.join(EXAMPLES, "cleaning_shoes", "episodes", "success.jsonl")
        header, steps = read_episode(path)
        header.pop("steps", None)
        want = check_records(path)[0]
        with self.eng.session(header=header, transitions=False, name=path) as s:
            for st in steps[:-1]:
                s.step(st)
            lean = s.step(steps[-1])
        self.assertEqual((lean.success, lean.score, lean.challenge_score, lean.goal, lean.step),
                         (want["success"], want["score"], want["challenge_score"], want["goal_at_end"],
                          want["episode_step"]))
        self.assertNotIn("unsatisfied", lean.record)
        self.assertNotIn("init_failures", lean.record)
        with self.eng.session(header=header, transitions=False, name=path) as s:
            run = s.run(steps)
        self.assertEqual(run.result.record, lean.record)

    def test_run_pre_encoded(self) -> None:
        """run takes JSON Lines text, bytes or a file of step lines, with
        the same outcome as the list of dicts; a header there is refused."""
        path = os.path.join(EXAMPLES, "cleaning_shoes", "episodes", "success.jsonl")
        header, steps = read_episode(path)
        header.pop("steps", None)
        with open(path, encoding="utf-8") as f:
            text = f.read()
        body = "".join(text.splitlines(True)[1:])
        with self.eng.session(header=header, transitions=False, name=path) as s:
            want = s.run(steps, goals=True, explain=True)
        with tempfile.TemporaryDirectory() as d:
            steps_file = os.path.join(d, "steps.jsonl")
            with open(steps_file, "w", encoding="utf-8") as f:
                f.write(body)
            # the text joined at once, and the layouts read line by line
            # (CRLF, blank and indented lines)
            crlf = body.replace("\n", "\r\n")
            blank = "\n \n".join(body.splitlines()) + "\n\n"
            indented = "".join(" \t" + ln + " \n" for ln in body.splitlines())
            for given in (body, body.encode(), steps_file, pathlib.Path(steps_file), crlf, blank, indented):
                with self.subTest(given=type(given).__name__):
                    with self.eng.session(header=header, transitions=False, name=path) as s:
                        got = s.run(given, goals=True, explain=True)
                        self.assertEqual(got, want)
                        # numbering goes on after the last step run
                        self.assertEqual(s.step().step, want.result.step + 1)
            with self.eng.session(header=header, transitions=False, name=path) as s:
                with self.assertRaises(ValueError):
                    s.run(text)

    def test_step_keywords_and_numbering(self) -> None:
        with self.eng.session(ACTIVITY) as s:
            r0 = s.step()
            self.assertEqual(r0.step, 0)
            r1 = s.step(facts=[["ontop", "mug.n.04_1", "sink.n.01_1"]], objects={"mug.n.04_1": {"exists": True}})
            self.assertEqual(r1.step, 1)
            r2 = s.step({"step": 10}, explain=False)
            self.assertEqual((r2.step, r2.unsatisfied), (10, ()))
            self.assertEqual(s.step().step, 11)

    def test_init(self) -> None:
        header, steps = read_episode(os.path.join(EXAMPLES, "cleaning_shoes", "episodes", "success.jsonl"))
        with self.eng.session(header=header) as s:
            ini = s.init(steps[0])
            self.assertIsInstance(ini, results.InitResult)
            self.assertEqual(ini.ok, ini.truth == "true")
        with self.eng.session(ACTIVITY) as s:
            ini = s.init({"step": 0})
            self.assertFalse(ini.ok)
            self.assertTrue(all(isinstance(l, results.Literal) for l in ini.failures))
            self.assertGreater(len(ini.failures), 0)

    def test_check(self) -> None:
        path = os.path.join(EXAMPLES, "making_a_smoothie", "episodes", "rules-off.jsonl")
        for flags, opts in (((), {}), (("--transitions", "--hold", "2"), {"transitions": True, "hold": 2})):
            want = check_records(path, *flags)[0]
            self.assertEqual(self.eng.check(path, **opts).record, want)
            header, steps = read_episode(path)
            got = self.eng.check([header] + steps, name=path, **opts)
            self.assertEqual(got.record, want)
        many = self.eng.check_many(os.path.join(EXAMPLES, "*", "episodes", "*.jsonl"))
        self.assertEqual(len(many), len([p for p in example_episodes() if p.endswith(".jsonl")]))

    def test_validate(self) -> None:
        good = self.eng.validate(ACTIVITY)
        self.assertTrue(good.ok)
        with open(os.path.join(EXAMPLES, ACTIVITY, "problem0.bddl"), encoding="utf-8") as f:
            src = f.read()
        bad = src.replace("floor.n.01_1)", "flor.n.01_1)", 1)
        rep = self.eng.validate(bad, name="generated.bddl")
        self.assertFalse(rep.ok)
        self.assertTrue(all(f.file == "generated.bddl" for f in rep.findings))
        self.assertIn("error", [f.severity for f in rep.findings])
        with tempfile.NamedTemporaryFile("w", suffix=".bddl", delete=False) as f:
            f.write(bad)
        try:
            by_path = self.eng.validate(f.name)
            cli = bddl("validate", "--format", "json", f.name)
            want = [json.loads(l) for l in cli.stdout.decode().splitlines()]
            self.assertEqual([fd.code for fd in by_path.findings], [w["code"] for w in want])
            self.assertEqual([(fd.line, fd.col) for fd in by_path.findings], [(w["line"], w["col"]) for w in want])
        finally:
            os.unlink(f.name)

    def test_explain(self) -> None:
        e = self.eng.explain(ACTIVITY)
        cli = json.loads(bddl("explain", "--format", "json", os.path.join(EXAMPLES, ACTIVITY, "problem0.bddl")).stdout)
        self.assertEqual(list(e.goal), cli["goal"])
        self.assertEqual(list(e.init), cli["init"])

    def test_kb_show(self) -> None:
        recs = self.eng.kb_show("apple.n.01")
        self.assertEqual(recs[0]["name"], "apple.n.01")
        with self.assertRaises(openbddl.EngineError) as cm:
            self.eng.kb_show("aple.n.01")
        self.assertEqual(cm.exception.code, "not_found")

    def test_sample(self) -> None:
        recs = self.eng.sample(ACTIVITY, seed=3, n=2)
        self.assertEqual(len(recs), 2)
        for r in recs:
            self.assertTrue(r.ok, r.reason)
            self.assertEqual(r.episode[0]["bddl_episode"], 1)
        # A sampled configuration is an episode its :init holds in.
        with self.eng.session(ACTIVITY, header=recs[0].episode[0]) as s:
            self.assertTrue(s.init(recs[0].episode[1]).ok)
        with tempfile.TemporaryDirectory() as d:
            out = self.eng.sample(ACTIVITY, seed=3, n=1, output=d)
            self.assertTrue(os.path.isfile(out[0].file))

    def test_numpy_like_values(self) -> None:
        class Arr:  # what numpy arrays and scalars offer
            def __init__(self, v):
                self.v = v

            def tolist(self):
                return self.v

        with self.eng.session(ACTIVITY) as s:
            r = s.step(objects={"mug.n.04_1": {"aabb": Arr([0.0, 0.0, 0.0, 0.1, 0.1, 0.1])}})
            self.assertEqual(r.step, 0)

    def test_run_encodings(self) -> None:
        """run's step encodings agree: a list (numpy-like values through
        the encoder's default), str, bytes, bytearray and memoryview of
        JSON Lines, joined at once or line by line (a raw U+2028 inside a
        string is not a line break); a circular step is a ValueError; bytes
        that are not UTF-8 are the bad step's error, with its index."""
        class Arr:
            def __init__(self, v):
                self.v = v

            def tolist(self):
                return self.v

        steps = [{"step": 0, "objects": {"mug.n.04_1": {"aabb": Arr([0.0, 0.0, 0.0, 0.1, 0.1, 0.1])}}},
                 {"step": 1, "facts": [["ontop", "mug.n.04_1", "sink.n.01_1"]], "note": "a\u2028b"},
                 {"step": 2, "false": [["ontop", "mug.n.04_1", "sink.n.01_1"]]}]
        text = "".join(json.dumps(st, default=Arr.tolist, ensure_ascii=False) + "\n" for st in steps)
        with self.eng.session(ACTIVITY) as s:
            want = s.run(steps, goals=True)
        self.assertEqual(want.steps, 3)
        for given in (text, text.encode(), bytearray(text.encode()), memoryview(text.encode()),
                      "\n\n" + text.replace("\n", "\n\n"), text.replace("\n", " \r\n").encode()):
            with self.subTest(given=given[:12]):
                with self.eng.session(ACTIVITY) as s:
                    self.assertEqual(s.run(given, goals=True), want)
        loop: dict = {"step": 0}
        loop["objects"] = {"mug.n.04_1": loop}
        with self.eng.session(ACTIVITY) as s:
            with self.assertRaises(ValueError):
                s.run([loop])
        bad = text.encode().replace(b"a\xe2\x80\xa8b", b"a\xffb")
        with self.eng.session(ACTIVITY) as s:
            with self.assertRaises(openbddl.StepError) as cm:
                s.run(bad)
            self.assertEqual(cm.exception.index, 1)
            self.assertIn("UTF-8", str(cm.exception))

    def test_run_marshalled_parts(self) -> None:
        """A list is sent marshalled, in parts chained on the server: the
        outcome is the JSON path's, whatever the part size; a bad step's
        index counts from the run's start and the parts after it are not
        applied; a value the server finds JSON cannot hold as it is (an
        array.array is written as bytes) sends the rest as JSON, with the
        same outcome, and the session keeps to JSON."""
        import array
        steps = [{"step": k, ("facts" if k % 3 else "false"): [["ontop", "mug.n.04_1", "sink.n.01_1"]],
                  "objects": {"mug.n.04_1": {"aabb": [0.0, 0.0, 0.0, 0.1, 0.1, 0.1 + 0.5 * k]}}} for k in range(40)]
        with self.eng.session(ACTIVITY, lenient=True) as s:
            s._marshal = False
            want = s.run(steps, goals=True, explain=True)
            self.assertFalse(s._marshal)
        self.assertEqual(want.steps, 40)
        for part in (1, 7, 39, 40, 1024):
            with self.subTest(part=part):
                with self.eng.session(ACTIVITY, lenient=True) as s:
                    s._run_part = part
                    self.assertEqual(s.run(steps, goals=True, explain=True), want)
                    self.assertTrue(s._marshal)
        with_array = [dict(st) for st in steps]
        with_array[20]["objects"] = {"mug.n.04_1": {"aabb": array.array("d", [0.0, 0.0, 0.0, 0.1, 0.1, 10.0])}}
        with self.eng.session(ACTIVITY, lenient=True) as s:
            s._marshal = False
            want_array = s.run(with_array, goals=True, explain=True)
        for part in (7, 1024):
            with self.subTest(part=part, array=True):
                with self.eng.session(ACTIVITY, lenient=True) as s:
                    s._run_part = part
                    self.assertEqual(s.run(with_array, goals=True, explain=True), want_array)
                    self.assertFalse(s._marshal)
        bad = [dict(st) for st in steps]
        bad[30]["facts"] = [["ontop", "nope.n.01_1", "sink.n.01_1"]]
        for part in (7, 1024):
            with self.subTest(part=part, bad=True):
                with self.eng.session(ACTIVITY, lenient=True) as s:
                    s._run_part = part
                    with self.assertRaises(openbddl.StepError) as cm:
                        s.run(bad, goals=True)
                    self.assertEqual(cm.exception.index, 30)
                    # Steps 0-29 applied, 30 skipped, nothing after it:
                    # step 31 is still to come.
                    r = s.run(steps[31:])
                    self.assertEqual((r.steps, r.result.step, r.result.record["skipped_steps"]), (9, 39, 1))

    def test_join_lines(self) -> None:
        """_join_lines turns JSON Lines into the JSON array of its steps
        whatever the piece size (pieces end at line breaks), joined at
        once or line by line, str or bytes; a header first is refused."""
        from openbddl import engine
        steps = [{"step": k, "facts": [["ontop", "a%d" % k, "b}{"]], "note": "x\u2028y"} for k in range(40)]
        lines = [json.dumps(st, ensure_ascii=False) for st in steps]
        texts = ["\n".join(lines), "\n".join(lines) + "\n\n", "  \n" + "\n".join(lines),
                 "\r\n".join(lines), "\n\n".join(lines), "\n".join(ln + " " for ln in lines), lines[0]]
        saved = engine._JOIN_PIECE
        try:
            for piece in (1, 7, 64, 1 << 15):
                engine._JOIN_PIECE = piece
                for text in texts:
                    for given in (text, text.encode(), bytearray(text.encode())):
                        with self.subTest(piece=piece, given=given[:20]):
                            got = json.loads(b"".join(engine._join_lines(given)))
                            self.assertEqual(got, steps[:len(got)])
                            self.assertEqual(len(got), 1 if text == lines[0] else len(steps))
            with self.assertRaises(ValueError):
                engine._join_lines('\n {"bddl_episode":1,"activity":"x"}\n{"step":0}')
            self.assertEqual(b"".join(engine._join_lines(" \n ")), b"[]")
        finally:
            engine._JOIN_PIECE = saved

    def test_call_raw(self) -> None:
        self.assertIn("goal", self.eng.call("explain", {"activity": ACTIVITY}))


if __name__ == "__main__":
    unittest.main()
