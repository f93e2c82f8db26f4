"""Score a vectorised environment every tick in one round trip.

LIBERO evaluates 20 environments in a SubprocVectorEnv and OmniGibson
steps many scenes at once; here a stand-in vector environment replays the
poses episode of tidying_the_living_room in N environments, each a few
steps behind the one before, and reports every object's pose as arrays
(environment x object x 3/4/6), as a simulator's state arrives. One
``SessionGroup.step`` scores all N per tick, the poses going in as
arrays with the objects' names given once.

    PYTHONPATH=python python3 python/examples/vector_loop.py
"""

import json
import os

import openbddl

HERE = os.path.dirname(os.path.abspath(__file__))
EPISODE = os.path.join(HERE, "..", "..", "activities", "examples", "tidying_the_living_room", "episodes", "poses.jsonl")
N = 4


class VectorEnv:
    """A stand-in for a vector environment: N replays of a recorded
    episode, environment i lagging i ticks; ``poses()`` gives the arrays a
    simulator would (numpy arrays in a real one; lists here)."""

    def __init__(self, n):
        with open(EPISODE, encoding="utf-8") as f:
            lines = [json.loads(l) for l in f if l.strip()]
        self.header = {k: v for k, v in lines[0].items() if k not in ("steps", "objects")}
        self.names = sorted(lines[0]["objects"])
        self.steps = lines[1:]
        self.start = {name: dict(rec) for name, rec in lines[0]["objects"].items()}
        self.state = [{name: dict(rec) for name, rec in self.start.items()} for _ in range(n)]
        self.tick = 0

    def step(self):
        """Advance every environment one tick."""
        for i, state in enumerate(self.state):
            k = self.tick - i
            if 0 <= k < len(self.steps):
                for name, rec in (self.steps[k].get("objects") or {}).items():
                    state[name].update(rec)
        self.tick += 1

    def poses(self, field):
        return [[state[name][field] for name in self.names] for state in self.state]


def main() -> None:
    env = VectorEnv(N)
    with openbddl.Engine() as eng:
        acts = [env.header["activity"]] * N
        # One session per environment, opened in one burst; the names of
        # the arrays' rows are given once.
        with eng.sessions(acts, [env.header] * N, names=env.names) as group:
            done = [False] * N
            for tick in range(len(env.steps) + N):
                env.step()
                r = group.step(pos=env.poses("pos"), quat=env.poses("quat"), aabb=env.poses("aabb"))
                r.raise_first()  # a refused step: say which
                print("tick %2d  goal %s  score %s" % (tick, " ".join("%-7s" % g for g in r.goal),
                                                      " ".join("%.2f" % s for s in r.score)))
                done = [d or s for d, s in zip(done, r.success)]
                if all(done):
                    break
            print("success rate %.2f (%d of %d environments)" % (sum(done) / N, sum(done), N))


if __name__ == "__main__":
    main()
