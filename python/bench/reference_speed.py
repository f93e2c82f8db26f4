"""Side-by-side speed of openbddl against the Python reference (bddl3).

For a deterministic sample of BEHAVIOR-1K activities, builds symbolic
states (the definition's :init, then one goal-predicate atom toggled per
step) and times, on the same states in one run:

  * the reference's own ``evaluate_goal_conditions`` (bddl3, with a
    backend that reads the atoms from a set: no simulator, no printing);
  * ``Session.step`` round trips from Python (client included), with the
    full record (explain=True) and the lean one (explain=False);
  * ``Session.run`` over a 10,000-step episode, per step.

Run (the reference checked out outside the repository, its dependencies
numpy, networkx and future installed):

    PYTHONPATH=python python3 python/bench/reference_speed.py \
        --reference /tmp/ref/bddl3 --corpus ../shared/behavior1k

Prints one line per activity and the min/median/max of each ratio.
"""

import argparse
import os
import random
import statistics
import subprocess
import json
import sys
import time

import openbddl


def load_reference(path):
    sys.path.insert(0, path)
    import bddl.activity as activity  # noqa: E402
    from bddl.backend_abc import BDDLBackend  # noqa: E402
    from bddl.logic_base import BinaryAtomicFormula, UnaryAtomicFormula  # noqa: E402
    from bddl.parsing import parse_domain  # noqa: E402

    *_, domain_predicates = parse_domain("omnigibson")
    state = set()

    # An atom over an object that does not exist (a future object, marked
    # absent in the state) is False, as the reference's OmniGibson backend
    # gates it (SEMANTICS.md A2); the check runs only for atoms the state
    # holds.
    def make(name, arity):
        if arity == 1:
            return type(name, (UnaryAtomicFormula,), {
                "STATE_NAME": name,
                "_evaluate": lambda self, o: (name, o.name) in state and (ABSENT, o.name) not in state,
                "_sample": lambda self, o, v: None})
        return type(name, (BinaryAtomicFormula,), {
            "STATE_NAME": name,
            "_evaluate": lambda self, a, b: ((name, a.name, b.name) in state and (ABSENT, a.name) not in state
                                            and (ABSENT, b.name) not in state),
            "_sample": lambda self, a, b, v: None})

    classes = {p: make(p, len(args)) for p, args in domain_predicates.items()}

    class SetBackend(BDDLBackend):
        def get_predicate_class(self, predicate_name):
            return classes[predicate_name]

    return activity, SetBackend(), state


ABSENT = "<absent>"
"""The first element of a state's marker for an object that does not exist."""


def absent(conds):
    """The markers of the objects that do not exist at the start (the
    definition's future objects), as the sessions' header says."""
    return {(ABSENT, a[1]) for a in conds.parsed_initial_conditions if a[0] == "future"}


class Obj:
    def __init__(self, name):
        self.name = name


def states_for(conds, rng, n):
    """Atom lists: the :init's atoms, then one atom toggled per step."""
    init = []
    for lit in conds.parsed_initial_conditions:
        if lit[0] in ("inroom", "not"):
            continue
        init.append(tuple(lit))
    objects = [o for objs in conds.parsed_objects.values() for o in objs]
    if any(o.endswith("_*") for o in objects):
        # The reference's scope holds a wildcard unexpanded, as one object;
        # a recording names the scene objects it stands for (SEMANTICS.md
        # 3.2), so the two would be asked different questions.
        raise ValueError("a wildcard instance in :objects")
    goal_text = repr(conds.parsed_goal_conditions)
    preds = sorted({p for p in ("ontop", "inside", "nextto", "under", "touching", "covered", "filled", "contains",
                                "saturated", "overlaid", "draped", "attached", "cooked", "frozen", "open",
                                "folded", "unfolded", "toggled_on", "hot", "on_fire", "broken", "closed", "empty")
                    if "'%s'" % p in goal_text})
    unary = {"cooked", "frozen", "open", "folded", "unfolded", "toggled_on", "hot", "on_fire", "broken", "closed", "empty"}
    cands = list(init)
    for _ in range(4 * len(objects)):
        if not preds:
            break
        p = rng.choice(preds)
        cands.append((p, rng.choice(objects)) if p in unary else (p, rng.choice(objects), rng.choice(objects)))
    cur = set(init)
    toggles = []
    for _ in range(n):
        a = rng.choice(cands)
        on = a not in cur
        (cur.add if on else cur.discard)(a)
        toggles.append((a, on))
    return init, objects, toggles


def atom(a):
    return [a[0]] + list(a[1:])


def measure(eng, reference, path, steps, run_steps, rng, rounds):
    activity, backend, state = reference
    with open(path, encoding="utf-8") as f:
        text = f.read()
    name = os.path.basename(os.path.dirname(path))
    conds = activity.Conditions(name, 0, "omnigibson", predefined_problem=text)
    scope = activity.get_object_scope(conds)
    for k in scope:
        scope[k] = Obj(k)
    goal = activity.get_goal_conditions(conds, backend, scope)
    init, objects, toggles = states_for(conds, rng, max(steps, run_steps))

    # The reference: evaluate_goal_conditions on each state.
    future = {a[1] for a in conds.parsed_initial_conditions if a[0] == "future"}
    header = {"closed_world": True, "objects": {o: {"exists": o not in future} for o in objects}}
    lines = [{"step": 0, "facts": [atom(a) for a in init]}]
    for k in range(max(steps, run_steps)):
        a, on = toggles[k]
        lines.append({"step": k + 1, ("facts" if on else "false"): [atom(a)]})

    def session_times(explain):
        out, goals = [], []
        with eng.session(path, header=header, transitions=False) as s:
            s.step(lines[0])
            for k in range(steps):
                t0 = time.perf_counter()
                r = s.step(lines[k + 1], explain=explain)
                out.append(time.perf_counter() - t0)
                goals.append(r.goal == "true")
        return out, goals

    def run_time(given):
        with eng.session(path, header=header, transitions=False) as s:
            t0 = time.perf_counter()
            s.run(given, goals=True)
            return (time.perf_counter() - t0) / run_steps

    gone = absent(conds)

    def reference_times():
        state.clear()
        state.update(init)
        state.update(gone)
        out, success = [], []
        for k in range(steps):
            a, on = toggles[k]
            (state.add if on else state.discard)(a)
            t0 = time.perf_counter()
            ok, _ = activity.evaluate_goal_conditions(goal)
            out.append(time.perf_counter() - t0)
            success.append(ok)
        return out, success

    def reference_loop():
        # The reference's loop over the run's states, per step.
        state.clear()
        state.update(init)
        state.update(gone)
        t0 = time.perf_counter()
        for k in range(run_steps):
            a, on = toggles[k]
            (state.add if on else state.discard)(a)
            activity.evaluate_goal_conditions(goal)
        return (time.perf_counter() - t0) / run_steps

    run_lines = lines[: run_steps + 1]
    jsonl = "".join(json.dumps(x) + "\n" for x in run_lines)
    per = {k: [] for k in ("ref", "full", "lean", "refloop", "run", "runjsonl")}
    agree = 0
    for _ in range(rounds):  # interleaved: each round times every side once
        ref_t, ref_success = reference_times()
        full, goals = session_times(True)
        lean, _ = session_times(False)
        per["ref"].append(statistics.median(ref_t))
        per["full"].append(statistics.median(full))
        per["lean"].append(statistics.median(lean))
        per["refloop"].append(reference_loop())
        per["run"].append(run_time(run_lines))
        per["runjsonl"].append(run_time(jsonl))
        agree = sum(1 for a, b in zip(ref_success, goals) if a == b)
    out = {"activity": name, "objects": len(objects), "agree": agree, "steps": steps}
    for k, v in per.items():
        out[k] = min(v)
        out[k + "_med"] = statistics.median(v)
    return out


def echo_times(n, size):
    """The pipe alone: a line of ``size`` bytes written, flushed and read
    back from ``cat``, as the client does with bddl serve."""
    proc = subprocess.Popen(["cat"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=1 << 16)
    line = b"x" * (size - 1) + b"\n"
    out = []
    try:
        for _ in range(n):
            t0 = time.perf_counter()
            proc.stdin.write(line)
            proc.stdin.flush()
            proc.stdout.readline()
            out.append(time.perf_counter() - t0)
    finally:
        proc.stdin.close()
        proc.wait()
    return statistics.median(out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--reference", required=True, help="the bddl3 directory of the reference")
    ap.add_argument("--corpus", required=True, help="BEHAVIOR-1K data (a bddl package folder: activity_definitions, generated_data)")
    ap.add_argument("--activities", type=int, default=9, help="activities sampled from the corpus")
    ap.add_argument("--steps", type=int, default=200)
    ap.add_argument("--run-steps", type=int, default=10000)
    ap.add_argument("--rounds", type=int, default=5, help="interleaved rounds; min and median reported")
    ap.add_argument("--only", nargs="*", help="these activities instead of a sample")
    args = ap.parse_args()
    reference = load_reference(args.reference)
    defs = os.path.join(args.corpus, "activity_definitions")
    paths = sorted(os.path.join(defs, d, "problem0.bddl") for d in os.listdir(defs)
                   if os.path.isfile(os.path.join(defs, d, "problem0.bddl")))
    # A deterministic sample spread over the corpus, ordered by size so
    # that the middle one is the median activity.
    stride = max(len(paths) // args.activities, 1)
    sample = paths[stride // 2::stride][: args.activities]
    if args.only:
        sample = [os.path.join(defs, a, "problem0.bddl") for a in args.only]
    rng = random.Random(22)
    rows = []
    with openbddl.Engine(kb=args.corpus) as eng:
        echo = [echo_times(args.steps, 200) for _ in range(args.rounds)]
        for p in sample:
            try:
                rows.append(measure(eng, reference, p, args.steps, args.run_steps, random.Random(rng.random()),
                                    args.rounds))
            except Exception as e:  # the reference cannot compile some definitions
                print("skip %s: %s: %s" % (os.path.basename(os.path.dirname(p)), type(e).__name__, e), file=sys.stderr)
    rows.sort(key=lambda r: r["objects"])
    print("pipe echo through cat (200-byte line, write+flush+readline): min %.1f µs, median %.1f µs over %d rounds"
          % (min(echo) * 1e6, statistics.median(echo) * 1e6, len(echo)))
    print("per activity: min over %d interleaved rounds (median in parentheses)" % args.rounds)
    print("%-34s %4s %12s %12s %12s %12s %12s %12s %5s" % (
        "activity", "objs", "ref µs", "full µs", "lean µs", "refloop µs", "run µs", "runjsonl µs", "agree"))
    for r in rows:
        print("%-34s %4d" % (r["activity"][:34], r["objects"]) + "".join(
            " %5.1f(%5.1f)" % (r[k] * 1e6, r[k + "_med"] * 1e6) for k in ("ref", "full", "lean", "refloop", "run", "runjsonl"))
            + " %3d/%d" % (r["agree"], r["steps"]))
    med = rows[len(rows) // 2]
    print("median activity (by objects): %s" % med["activity"])
    for suffix, what in (("", "min"), ("_med", "median")):
        print("-- ratios from the %s over rounds --" % what)
        for key, label in (("full", "session.step (explain=True) / reference"),
                           ("lean", "session.step (lean, default) / reference")):
            rs = [r[key + suffix] / r["ref" + suffix] for r in rows]
            print("%s: median activity %.2f; min %.2f, median %.2f, max %.2f"
                  % (label, med[key + suffix] / med["ref" + suffix], min(rs), statistics.median(rs), max(rs)))
        for key, label in (("run", "s.run(list of dicts)"), ("runjsonl", "s.run(JSON Lines text)")):
            rs = [r["refloop" + suffix] / r[key + suffix] for r in rows]
            print("reference loop per step / %s per step: median activity %.1fx; min %.1fx, median %.1fx, max %.1fx"
                  % (label, med["refloop" + suffix] / med[key + suffix], min(rs), statistics.median(rs), max(rs)))


if __name__ == "__main__":
    main()
