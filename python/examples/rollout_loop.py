"""Check a policy rollout step by step, from a generic simulator loop.

The simulator here is a stand-in that replays an example episode; put your
own environment in its place: each step, report the objects' states and
the facts the simulator knows, and read back whether the goal holds.

    PYTHONPATH=python python3 python/examples/rollout_loop.py
"""

import json
import os

import openbddl

HERE = os.path.dirname(os.path.abspath(__file__))
EPISODE = os.path.join(HERE, "..", "..", "activities", "examples", "cleaning_shoes", "episodes", "success.jsonl")


def simulator():
    """A stand-in simulator: yields (header, observation) per step."""
    with open(EPISODE, encoding="utf-8") as f:
        lines = [json.loads(l) for l in f if l.strip()]
    header = lines[0]
    for obs in lines[1:]:
        yield header, obs


def main() -> None:
    with openbddl.Engine() as eng:
        session = None
        for header, obs in simulator():
            if session is None:
                # The header lists the objects (wildcards expanded), says
                # whether unrecorded atoms are false (closed_world) and the
                # time step; transitions=True (the default) applies the
                # knowledge base's rules (cooking, slicing, ...) after each
                # step, for a simulator that does not.
                session = eng.session(header["activity"], header=header)
                init = session.init(obs)  # the first step: does :init hold?
                print("init holds:", init.ok, [l.ground for l in init.failures][:3])
                continue
            r = session.step(objects=obs.get("objects"), facts=obs.get("facts"), false=obs.get("false"),
                             unset=obs.get("unset"), t=obs.get("t"), explain=True)  # with the literals
            print("step %3d  goal %-7s  score %.2f  %s" % (r.step, r.goal, r.score,
                                                          ", ".join(l.ground for l in r.unsatisfied[:2])))
            for f in r.fired:
                print("          rule fired: %s %s" % (f.family, f.rule))
            if r.success:
                print("success at step", r.first_success_step)
                break
        if session is not None:
            session.close()


if __name__ == "__main__":
    main()
