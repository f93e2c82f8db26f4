"""SessionGroup: N sessions stepped in one round trip."""

import unittest

import openbddl

from .helpers import example_episodes, read_episode


class Rows:
    """A stand-in for a numpy array where numpy is absent: only .tolist()."""

    def __init__(self, rows):
        self.rows = rows

    def tolist(self):
        return self.rows


def array(rows):
    try:
        import numpy as np
    except ImportError:
        return Rows(rows)
    return np.array(rows, dtype=np.float64)


def comparable(rec):
    return {k: v for k, v in rec.items() if k != "episode"}


class GroupTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        cls.eng = openbddl.Engine()
        cls.eps = [read_episode(p) for p in example_episodes()]

    @classmethod
    def tearDownClass(cls) -> None:
        cls.eng.close()

    def test_group_equals_separate_sessions(self) -> None:
        """Every example episode stepped as one group (twice over: 16
        members, the server's parallel path) gives each step the record
        its own session gives, and the columns agree with it."""
        eps = self.eps + self.eps
        headers = [h for h, _ in eps]
        acts = [h["activity"] for h in headers]
        longest = max(len(st) for _, st in eps)
        with self.eng.sessions(acts, headers, transitions=True) as g:
            alone = [self.eng.session(a, header=h, transitions=True) for a, h in zip(acts, headers)]
            self.assertEqual(len(g), len(eps))
            compared = failed = 0
            for k in range(longest):
                # An episode that has ended repeats its last step's fields
                # under the next number (the group steps every member).
                steps = [dict(st[min(k, len(st) - 1)], step=st[0]["step"] + k if k >= len(st) else st[k]["step"])
                         for _, st in eps]
                r = g.step(steps, records=True, explain=True)
                self.assertEqual(len(r), len(eps))
                for i, s in enumerate(alone):
                    try:
                        want = s.step(steps[i], explain=True)
                    except openbddl.StepError as e:
                        self.assertIsInstance(r.errors[i], openbddl.StepError, "member %d step %d" % (i, k))
                        self.assertEqual(r.errors[i].message, e.message)
                        self.assertEqual((r.success[i], r.goal[i], r.step[i]), (False, "unknown", -1))
                        failed += 1
                        continue
                    self.assertIsNone(r.errors[i], "member %d step %d" % (i, k))
                    self.assertEqual(comparable(r[i].record), comparable(want.record), "member %d step %d" % (i, k))
                    self.assertEqual((r.success[i], r.goal[i], r.score[i], r.challenge_score[i], r.step[i]),
                                     (want.success, want.goal, want.score, want.challenge_score, want.step))
                    compared += 1
            self.assertGreater(compared, 5 * len(eps))
            for s in alone:
                s.close()

    def test_counted_numbers_and_columns_only(self) -> None:
        h, steps = self.eps[1]
        with self.eng.sessions([h["activity"]] * 3, [h] * 3) as g:
            r = g.step([{k: v for k, v in steps[0].items() if k != "step"}] * 3)
            self.assertEqual(r.step, [0, 0, 0])
            self.assertTrue(r.ok)
            self.assertIsNone(r.records)
            with self.assertRaises(ValueError):
                r[0]
            r = g.step()  # numbers alone: an empty step each
            self.assertEqual(r.step, [1, 1, 1])
            # The sessions stay usable one by one, numbered on.
            self.assertEqual(g.sessions[0].step().step, 2)
            r = g.step([None, {"step": 7}, {}])
            self.assertEqual(r.step, [3, 7, 2])
            r = g.step([{}, {"step": 9}, {"facts": []}])  # mixed, no None
            self.assertEqual(r.step, [4, 9, 3])
            r = g.step([{"step": 6}, {"step": 10}, {"step": 4}])
            self.assertEqual(r.step, [6, 10, 4])

    def test_numbers_read_when_needed(self) -> None:
        """After a group step whose steps all applied, the sessions' next
        numbers are read from its answer only when something needs one:
        an unnumbered group step, a session's own step or run, a reset;
        until then the step column stays undecoded."""
        h, steps = self.eps[1]
        first = {k: v for k, v in steps[0].items() if k != "step"}
        with self.eng.sessions([h["activity"]] * 3, [h] * 3) as g:
            r = g.step([dict(first, step=5), dict(first, step=8), dict(first, step=2)])
            self.assertIs(g._pending, r)
            self.assertNotIn("step", r._cols)
            self.assertEqual(g.step().step, [6, 9, 3])  # numbered from the unread answer
            self.assertEqual(g.step([{"step": 20}, {"step": 30}, {"step": 40}]).step, [20, 30, 40])
            self.assertEqual(g.sessions[1].step().step, 31)  # a session's own step reads it
            self.assertIsNone(g._pending)
            g.step([{"step": 50}, {"step": 60}, {"step": 70}])
            self.assertEqual(g.sessions[2].run([{}, {}]).result.step, 72)
            self.assertEqual(g.step().step, [51, 61, 73])
            g.step([{"step": 80}, {"step": 90}, {"step": 100}])
            g.reset([0])  # the others keep their numbers
            self.assertEqual(g.step().step, [0, 91, 101])
        for steps in (None, [{}, {}, {}], [{}]):
            with self.assertRaisesRegex(ValueError, "the group is closed"):
                g.step(steps)

    def test_records_built_when_reached(self) -> None:
        """With records=True each StepResult is built on first access, once,
        and equals the record the server sent."""
        h, steps = self.eps[1]
        with self.eng.sessions([h["activity"]] * 3, [h] * 3) as g:
            r = g.step([steps[0]] * 3, records=True)
            self.assertEqual(r._built, None)
            first = r[1]
            self.assertEqual(r._built, [None, first, None])
            self.assertIs(r[-2], first)
            self.assertIs(r.records[1], first)
            self.assertEqual([x.step for x in r.records], r.step)
            self.assertEqual([x.goal for x in r.records], r.goal)
            with self.assertRaises(IndexError):
                r[3]

    def test_columns_decoded_when_read(self) -> None:
        """Without records, a column is decoded from the answer when first
        read (the step numbers at once, for the sessions' numbering), and
        every column equals the one the whole answer decoded gives."""
        h, steps = self.eps[1]
        bad = {"step": 1, "objects": {"shoe.n.01_1": {"aabb": [1, 1, 1, 0, 0, 0]}}}
        with self.eng.sessions([h["activity"]] * 3, [h] * 3) as lazy, \
                self.eng.sessions([h["activity"]] * 3, [h] * 3) as whole:
            for k, row in enumerate([[steps[0]] * 3, [steps[1], bad, steps[1]], [steps[2]] * 3]):
                a = lazy.step(row)
                b = whole.step(row, records=True)  # decoded whole
                # Nothing decoded before being read, but the step numbers
                # when a session failed (its number stays where it was;
                # the one the bad step stopped fails every tick after).
                self.assertEqual(sorted(a._cols), ["step"] if any(b.errors) else [],
                                 "tick %d: decoded before being read" % k)
                for col in ("success", "goal", "score", "challenge_score", "step"):
                    self.assertEqual(getattr(a, col), getattr(b, col), "tick %d, %s" % (k, col))
                self.assertEqual([type(e) for e in a.errors], [type(e) for e in b.errors])
                self.assertEqual([str(e) for e in a.errors], [str(e) for e in b.errors])
            for sess in lazy.sessions + whole.sessions:
                sess._catch_up()
            self.assertEqual([s._next for s in lazy.sessions], [s._next for s in whole.sessions])
        broken = openbddl.GroupResult({}, '{"id":1,"result":{"success":[true,"goal":[}}')
        with self.assertRaises(openbddl.EngineError) as e:
            broken.goal
        self.assertEqual(e.exception.code, "protocol")

    def test_groups_from_threads(self) -> None:
        """Groups stepped from several threads at once on one engine (a
        thread may read another's answer, which it hands over decoded)
        give the columns each gives alone."""
        import threading
        h, steps = self.eps[1]
        n = min(len(steps), 20)
        want = []
        with self.eng.sessions([h["activity"]] * 2, [h] * 2) as g:
            for k in range(n):
                want.append(g.step([steps[k]] * 2).goal)
        got = {}

        def run(t: int) -> None:
            with self.eng.sessions([h["activity"]] * 2, [h] * 2) as g:
                got[t] = [g.step([steps[k]] * 2).goal for k in range(n)]

        threads = [threading.Thread(target=run, args=(t,)) for t in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        self.assertEqual(got, {t: want for t in range(4)})

    def test_failing_member(self) -> None:
        """One member's bad step is reported in its place; the others
        apply; it stays stopped (strict), as its session would."""
        h, steps = self.eps[1]
        with self.eng.sessions([h["activity"]] * 4, [h] * 4) as g:
            bad = {"step": 0, "objects": {"shoe.n.01_1": {"aabb": [1, 1, 1, 0, 0, 0]}}}
            r = g.step([steps[0], bad, steps[0], steps[0]])
            self.assertFalse(r.ok)
            self.assertEqual([e is None for e in r.errors], [True, False, True, True])
            self.assertIsInstance(r.errors[1], openbddl.StepError)
            self.assertEqual(r.errors[1].field, "objects.shoe.n.01_1.aabb")
            self.assertEqual(r.step, [0, -1, 0, 0])
            with self.assertRaises(openbddl.StepError):
                r.raise_first()
            r = g.step([steps[1]] * 4)
            self.assertEqual([e is None for e in r.errors], [True, False, True, True])

    def test_bad_request_applies_nothing(self) -> None:
        h, steps = self.eps[1]
        with self.eng.sessions([h["activity"]] * 2, [h] * 2) as g:
            with self.assertRaises(ValueError):
                g.step([steps[0]])
            with self.assertRaises(ValueError):
                g.step(pos=[[[0, 0, 0]], [[0, 0, 0]]])  # no names
            with self.assertRaises(openbddl.EngineError) as cm:
                g.step(pos=[[[0, 0, 0]]], names=["shoe.n.01_1"])  # one row for two sessions
            self.assertEqual(cm.exception.code, "invalid_params")
            self.assertEqual(g.step([steps[0], steps[0]]).step, [0, 0])

    def test_open_failure_closes_the_others(self) -> None:
        with self.assertRaises(openbddl.EngineError) as cm:
            self.eng.sessions(["cleaning_shoes", "no_such_activity_here"])
        self.assertIn("session 1 of the group", str(cm.exception))

    def test_arrays_equal_dicts(self) -> None:
        """Poses as arrays (names once) give the records the same poses
        give written in each step's objects."""
        names = ["floor.n.01_1", "coffee_table.n.01_1", "mug.n.04_1"]
        header = {"closed_world": True}
        n = 9
        with self.eng.sessions(["tidying_the_living_room"] * n, [header] * n, names=names) as ga, \
                self.eng.sessions(["tidying_the_living_room"] * n, [header] * n) as gd:
            for k in range(4):
                pos, aabb, dicts = [], [], []
                for i in range(n):
                    z = 0.1 * ((i + k) % 3)
                    p = [[0, 0, 0], [1, 1, 0.4], [1, 1, 0.8 + z]]
                    b = [[-5, -5, -0.1, 5, 5, 0], [0.5, 0.5, 0, 1.5, 1.5, 0.8], [0.95, 0.95, 0.8 + z, 1.05, 1.05, 1 + z]]
                    pos.append(p)
                    aabb.append(b)
                    dicts.append({"objects": {nm: {"pos": p[j], "aabb": b[j]} for j, nm in enumerate(names)}})
                extra = [{"facts": [["inside", "mug.n.04_1", "toy_box.n.01_1"]]} if i % 2 else {} for i in range(n)]
                ra = ga.step(extra, pos=array(pos), aabb=array(aabb), records=True, explain=True)
                rd = gd.step([dict(d, **e) for d, e in zip(dicts, extra)], records=True, explain=True)
                self.assertTrue(ra.ok, ra.errors)
                self.assertTrue(rd.ok, rd.errors)
                for i in range(n):
                    self.assertEqual(comparable(ra[i].record), comparable(rd[i].record), "step %d member %d" % (k, i))

    def test_values_marshal_cannot_send(self) -> None:
        """A step holding a value JSON cannot hold as it is (a set here; a
        numpy value likewise) is refused by the server unapplied, sent
        again as JSON, and the group keeps to JSON."""
        h, steps = self.eps[1]
        with self.eng.sessions([h["activity"]] * 2, [h] * 2) as g:
            self.assertTrue(g._marshal)
            st = dict(steps[0], facts={tuple(f) for f in steps[0]["facts"]})
            r = g.step([st, steps[0]], records=True)
            self.assertTrue(r.ok, r.errors)
            self.assertFalse(g._marshal)
            self.assertEqual(comparable(r[0].record), comparable(r[1].record))
            self.assertEqual(g.step([steps[1], steps[1]]).step, [steps[1]["step"]] * 2)

    def test_reset(self) -> None:
        h, steps = self.eps[1]
        with self.eng.sessions([h["activity"]] * 3, [h] * 3) as g:
            g.step([steps[0]] * 3)
            g.step([steps[1]] * 3)
            old = [s.id for s in g.sessions]
            g.reset([1])
            self.assertEqual(g.sessions[0].id, old[0])
            self.assertNotEqual(g.sessions[1].id, old[1])
            r = g.step([steps[2], steps[0], steps[2]])
            self.assertTrue(r.ok, r.errors)
            self.assertEqual(r.step, [steps[2]["step"], steps[0]["step"], steps[2]["step"]])
            g.reset()
            self.assertEqual(g.step([steps[0]] * 3).step, [steps[0]["step"]] * 3)


if __name__ == "__main__":
    unittest.main()
