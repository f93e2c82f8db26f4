"""Per environment-step cost of a vectorised loop: one ``SessionGroup.step``
over N sessions against N lean ``Session.step`` round trips and against
the Python reference's ``evaluate_goal_conditions`` (bddl3) on the same
activities and states, side by side in one run.

Each environment is one BEHAVIOR-1K activity (a deterministic sample of
N): its states are built as ``reference_speed.py`` builds them (the
definition's :init, then one goal-predicate atom toggled per step), and
streamed: tick k sends every environment its step k. Per round and
side, the figure is the median over ticks of the tick's time divided by
N (for the reference: the sum of its N calls' times divided by N);
rounds are interleaved, and min and median over rounds are printed.

    go build -o /tmp/bddl ./cmd/bddl
    BDDL_BIN=/tmp/bddl PYTHONPATH=python /usr/bin/python3 python/bench/group_speed.py \\
        --reference /tmp/ref/bddl3 --corpus ../shared/behavior1k [--envs 16] [--rounds 5]

Without ``--reference`` (the reference cannot be loaded), the group is
compared with the separate round trips only.
"""

import argparse
import os
import random
import statistics
import sys
import time

import openbddl

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from reference_speed import Obj, absent, atom, load_reference, states_for  # noqa: E402


def build_env(reference, path, rng, ticks):
    """One environment: its step lines and, with the reference, its goal
    and the atom sets of each state."""
    activity, backend, _ = reference
    with open(path, encoding="utf-8") as f:
        text = f.read()
    name = os.path.basename(os.path.dirname(path))
    conds = activity.Conditions(name, 0, "omnigibson", predefined_problem=text)
    scope = activity.get_object_scope(conds)
    for k in scope:
        scope[k] = Obj(k)
    goal = activity.get_goal_conditions(conds, backend, scope)
    init, objects, toggles = states_for(conds, rng, ticks)
    future = {a[1] for a in conds.parsed_initial_conditions if a[0] == "future"}
    header = {"closed_world": True, "objects": {o: {"exists": o not in future} for o in objects}}
    lines = [{"step": 0, "facts": [atom(a) for a in init]}]
    states = []
    gone = absent(conds)  # the future objects: atoms over them are False
    cur = set(init) | gone
    for k in range(ticks):
        a, on = toggles[k]
        lines.append({"step": k + 1, ("facts" if on else "false"): [atom(a)]})
        (cur.add if on else cur.discard)(a)
        states.append(frozenset(cur))
    return {"name": name, "path": path, "goal": goal, "header": header, "lines": lines, "states": states,
            "objects": len(objects)}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--reference", help="the bddl3 directory of the reference (omit: engine sides only)")
    ap.add_argument("--corpus", required=True, help="BEHAVIOR-1K data (activity_definitions, generated_data)")
    ap.add_argument("--envs", type=int, default=16)
    ap.add_argument("--ticks", type=int, default=200)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--spin", type=float, default=openbddl.engine.DEFAULT_SPIN,
                    help="Engine(spin=): seconds a wait polls before it sleeps")
    args = ap.parse_args()
    if not args.reference:
        sys.exit("this version needs --reference to build the states (reference_speed.states_for reads the "
                 "reference's parse of each definition)")
    reference = load_reference(args.reference)
    activity, _, state = reference
    defs = os.path.join(args.corpus, "activity_definitions")
    paths = sorted(os.path.join(defs, d, "problem0.bddl") for d in os.listdir(defs)
                   if os.path.isfile(os.path.join(defs, d, "problem0.bddl")))
    rng = random.Random(36)
    envs = []
    stride = max(len(paths) // (3 * args.envs), 1)
    for p in paths[stride // 2::stride]:
        if len(envs) == args.envs:
            break
        try:
            envs.append(build_env(reference, p, random.Random(rng.random()), args.ticks))
        except Exception as e:  # the reference cannot compile some definitions
            print("skip %s: %s" % (os.path.basename(os.path.dirname(p)), type(e).__name__), file=sys.stderr)
    n = len(envs)
    kb = os.path.join(args.corpus, "generated_data")
    per = {"ref": [], "sep": [], "group": [], "group_records": []}
    agree = total = 0
    with openbddl.Engine(kb=kb, spin=args.spin) as eng:
        def engine_side(kind):
            ticks = []
            if kind == "sep":
                ss = [eng.session(e["path"], header=e["header"], transitions=False) for e in envs]
                for s, e in zip(ss, envs):
                    s.step(e["lines"][0])
                for k in range(1, args.ticks + 1):
                    t0 = time.perf_counter()
                    for s, e in zip(ss, envs):
                        s.step(e["lines"][k])
                    ticks.append((time.perf_counter() - t0) / n)
                for s in ss:
                    s.close()
                return ticks, None
            goals = []
            with eng.sessions([e["path"] for e in envs], [e["header"] for e in envs], transitions=False) as g:
                g.step([e["lines"][0] for e in envs])
                for k in range(1, args.ticks + 1):
                    steps = [e["lines"][k] for e in envs]
                    t0 = time.perf_counter()
                    r = g.step(steps, records=(kind == "group_records"))
                    ticks.append((time.perf_counter() - t0) / n)
                    goals.append(r.goal)
            return ticks, goals

        def reference_side():
            ticks, succ = [], []
            for k in range(args.ticks):
                spent = 0.0
                row = []
                for e in envs:
                    state.clear()
                    state.update(e["states"][k])
                    t0 = time.perf_counter()
                    ok, _ = activity.evaluate_goal_conditions(e["goal"])
                    spent += time.perf_counter() - t0
                    row.append(ok)
                ticks.append(spent / n)
                succ.append(row)
            return ticks, succ

        for _ in range(args.rounds):
            ref, succ = reference_side()
            per["ref"].append(statistics.median(ref))
            sep, _ = engine_side("sep")
            per["sep"].append(statistics.median(sep))
            grp, goals = engine_side("group")
            per["group"].append(statistics.median(grp))
            grr, _ = engine_side("group_records")
            per["group_records"].append(statistics.median(grr))
            agree = sum(1 for k in range(args.ticks) for i in range(n) if (goals[k][i] == "true") == succ[k][i])
            total = args.ticks * n
    print("%d environments (activities by objects: %s)" % (n, ", ".join(
        "%s/%d" % (e["name"], e["objects"]) for e in sorted(envs, key=lambda e: e["objects"]))))
    print("µs per environment-step, min over %d interleaved rounds (median in parentheses), %d ticks each:"
          % (args.rounds, args.ticks))
    for k, label in (("ref", "reference evaluate_goal_conditions (in process)"),
                     ("sep", "%d lean Session.step round trips" % n),
                     ("group", "one SessionGroup.step (columns)"),
                     ("group_records", "one SessionGroup.step (records=True)")):
        print("  %-48s %7.2f (%7.2f)" % (label, min(per[k]) * 1e6, statistics.median(per[k]) * 1e6))
    for a, b, label in (("group", "ref", "group / reference"), ("sep", "group", "separate / group"),
                        ("group_records", "ref", "group with records / reference")):
        print("  %-48s %7.2fx (%7.2fx)" % (label, min(per[a]) / min(per[b]),
                                           statistics.median(per[a]) / statistics.median(per[b])))
    print("goal truth agrees with the reference: %d/%d environment-steps" % (agree, total))


if __name__ == "__main__":
    main()
