"""A gym-style loop with a live checker: reset, step, check, repeat.

``openbddl.LiveChecker`` keeps the bookkeeping a loop that owns time would
otherwise do: it numbers the ticks, answers a tick repeated for the same
step with the result it gave (a runtime that calls twice, a loop that
re-sends after a retry) instead of failing, and ``reset()`` starts the
next episode on the same definition. The environment here is a stand-in
that replays an example episode; put your own in its place.

    PYTHONPATH=python python3 python/examples/live_loop.py
"""

import json
import os

import openbddl

HERE = os.path.dirname(os.path.abspath(__file__))
EPISODE = os.path.join(HERE, "..", "..", "activities", "examples", "cleaning_shoes", "episodes", "success.jsonl")


class Env:
    """A stand-in gym environment: reset() and step() return observations
    as episode steps (objects, facts) without their numbers."""

    def __init__(self):
        with open(EPISODE, encoding="utf-8") as f:
            lines = [json.loads(l) for l in f if l.strip()]
        self.header = {k: v for k, v in lines[0].items() if k != "steps"}
        self.obs = [{k: v for k, v in l.items() if k != "step"} for l in lines[1:]]
        self.k = 0

    def reset(self):
        self.k = 0
        return self.obs[0]

    def step(self, action):
        self.k = min(self.k + 1, len(self.obs) - 1)
        return self.obs[self.k], 0.0, self.k == len(self.obs) - 1, {}


def main() -> None:
    env = Env()
    with openbddl.Engine() as eng:
        checker = openbddl.LiveChecker(eng, env.header["activity"], header=env.header)
        for episode in range(2):
            obs = env.reset()
            r = checker.tick(obs)  # step 0, counted
            t = 0
            while not r.success:
                obs, _, done, _ = env.step(action=None)
                t += 1
                r = checker.tick(obs, t)
                again = checker.tick(obs, t)  # the same tick again: the same answer, nothing sent
                assert again is r
                print("episode %d step %d  goal %-7s score %.2f" % (episode, r.step, r.goal, r.score))
                if done:
                    break
            print("episode %d: success %s at step %s" % (episode, r.success, r.first_success_step))
            checker.reset()  # the next episode, same definition
        checker.close()


if __name__ == "__main__":
    main()
