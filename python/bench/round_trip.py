"""Round-trip latency of bddl serve from Python, min and median.

Times N requests the server refuses at once (an unknown method: the pipe,
both processes' wake-ups and the client's JSON work) and N lean
session.step calls on one activity. For comparing server builds, run it
interleaved with BDDL_BIN pointing at each (or with --spin 0 and the
default, for the polling's share):

    BDDL_BIN=/tmp/bddl PYTHONPATH=python python3 python/bench/round_trip.py \\
        --activity activities/examples/cleaning_shoes/problem0.bddl -n 5000
"""

import argparse
import statistics
import time

import openbddl


def timed(n, call):
    out = []
    for _ in range(n):
        t0 = time.perf_counter()
        call()
        out.append(time.perf_counter() - t0)
    return min(out) * 1e6, statistics.median(out) * 1e6


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--activity", required=True, help="an activity name or problem file")
    ap.add_argument("-n", type=int, default=5000)
    ap.add_argument("--spin", type=float, default=openbddl.engine.DEFAULT_SPIN,
                    help="Engine(spin=...): seconds a wait polls before it sleeps (0: never, on either side)")
    args = ap.parse_args()
    with openbddl.Engine(spin=args.spin) as eng:
        srv = eng._get()

        def refused():
            try:
                eng._raw_call(srv, '"method":"no.such.method","params":{}}')
            except openbddl.EngineError:
                pass

        print("refused request: min %.1f µs, median %.1f µs" % timed(args.n, refused))
        with eng.session(args.activity, transitions=False) as s:
            s.step({})
            print("lean session.step: min %.1f µs, median %.1f µs" % timed(args.n, lambda: s.step({})))


if __name__ == "__main__":
    main()
