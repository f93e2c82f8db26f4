"""Score every episode of a directory, as `bddl check` does, from Python.

Episodes on disk are checked by path; episodes held in memory (a list of
dicts per episode, header first) are checked without writing files.

    PYTHONPATH=python python3 python/examples/score_directory.py [DIR]
"""

import json
import os
import statistics
import sys

import openbddl

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT = os.path.join(HERE, "..", "..", "activities", "examples", "*", "episodes", "*.jsonl*")


def main() -> None:
    target = sys.argv[1] if len(sys.argv) > 1 else DEFAULT
    with openbddl.Engine() as eng:
        results = eng.check_many(target)
        for r in results:
            print("%-5s %.2f %.2f  %s" % ("ok" if r.success else "FAIL", r.score, r.challenge_score, r.episode))
        if results:
            print("success rate %.2f, mean score %.3f over %d episodes" % (
                sum(r.success for r in results) / len(results), statistics.mean(r.score for r in results), len(results)))
        # The same, for an episode held in memory: one round trip.
        first = [p for p in (r.episode for r in results) if p.endswith(".jsonl")][:1]
        for path in first:
            with open(path, encoding="utf-8") as f:
                lines = [json.loads(l) for l in f if l.strip()]
            r = eng.check(lines, name=path)
            print("in memory: %s success=%s score=%.2f" % (os.path.basename(path), r.success, r.score))


if __name__ == "__main__":
    main()
