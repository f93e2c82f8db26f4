#!/usr/bin/env bash
# ratios.sh measures, side by side in one run, the four performance ratios
# of issue 12, each against a baseline measured in the same run, with the
# minimum and median of several runs and the load average:
#
#   (a) the Go parser's MB/s (BenchmarkParseCorpus) against the Python
#       reference's parse_problem over the same texts in memory, the two
#       taking turns so that they see the same load, one core each (the
#       Go benchmark with GOMAXPROCS=1; its figure on every core is shown
#       too);
#   (b) `bddl parse` over the corpus as a whole process against readfloor,
#       a program that only reads the same files;
#   (c) `bddl kb show apple.n.01 --kb <knowledge base>` as a whole process
#       against Python's json.load of the knowledge base's JSON files
#       (timed inside Python, interpreter start-up excluded), with a warm
#       knowledge-base cache, a cold one and none;
#   (d) `bddl validate` over the corpus with the full knowledge base: wall
#       time and peak resident memory.
#
# Usage: tools/ratios.sh [RUNS]          (default 7 runs of each)
# Environment: BDDL_CORPUS (default ../shared/behavior1k), and for (a) the
# Python reference package bddl: installed (python3 -c 'import bddl'), or
# BDDL_PY_REFERENCE pointing at a directory containing its bddl/ sources.
# Without it, (a) says it is skipped. Needs bash, python3 and go only.
set -euo pipefail

runs=${1:-7}
root=$(cd "$(dirname "$0")/.." && pwd)
corpus=${BDDL_CORPUS:-$root/../shared/behavior1k}
if [[ ! -d $corpus/activity_definitions || ! -f $corpus/generated_data/output_hierarchy.json ]]; then
	echo "ratios.sh: no corpus at $corpus (set BDDL_CORPUS)" >&2
	exit 2
fi
corpus=$(cd "$corpus" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "building..." >&2
(cd "$root" && go build -o "$work/bddl" ./cmd/bddl && go build -o "$work/readfloor" ./tools/readfloor)

(cd "$root" && go test -c -o "$work/bddl.test" ./bddl/)

python3 - "$runs" "$corpus" "$work" "$root" <<'PY'
import glob, io, json, os, re, statistics, subprocess, sys, time, contextlib

runs, corpus, work, root = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
bddl = os.path.join(work, "bddl")
defs = os.path.join(corpus, "activity_definitions")
kbdir = os.path.join(corpus, "generated_data")

def load():
    return open("/proc/loadavg").read().split()[:3] if os.path.exists("/proc/loadavg") else os.getloadavg()

def stats(xs):
    return min(xs), statistics.median(xs)

def run(cmd, env=None):
    """Runs cmd, returns (wall seconds, peak RSS in MB) of that one child."""
    t = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    _, _, ru = os.wait4(p.pid, 0)
    return time.perf_counter() - t, ru.ru_maxrss / 1024

def ms(x):
    return "%.1f ms" % (x * 1e3)

print("load average at start: %s %s %s (%d cores)" % (*load(), os.cpu_count()))
print("runs per measurement: %d; ratios from the minima and from the medians" % runs)
print()

# (a) parser in memory: the Go benchmark and the Python loop take turns,
# so both see the same load.
def go_bench(procs):
    """One run of BenchmarkParseCorpus with GOMAXPROCS=procs (0: all cores):
    (seconds per pass, MB/s), or None."""
    env = dict(os.environ, BDDL_CORPUS=corpus)
    if procs:
        env["GOMAXPROCS"] = str(procs)
    out = subprocess.run([os.path.join(work, "bddl.test"), "-test.run", "^$", "-test.bench", "^BenchmarkParseCorpus$",
                          "-test.benchtime", "30x"], capture_output=True, text=True,
                         cwd=os.path.join(root, "bddl"), env=env).stdout
    m = re.search(r"BenchmarkParseCorpus\S*\s+\d+\s+([\d.]+) ns/op\s+([\d.]+) MB/s", out)
    return (float(m[1]) / 1e9, float(m[2])) if m else None
files = sorted(glob.glob(os.path.join(defs, "**", "*.bddl"), recursive=True))
texts = [open(f).read() for f in files]
total = sum(len(t.encode()) for t in texts)
problems = [(t, (re.search(r"\(\s*:domain\s+([^\s()]+)", t) or [None, ""])[1].lower()) for t in texts if re.search(r"\(\s*problem\b", t)]
parse_problem = None
try:
    ref = os.environ.get("BDDL_PY_REFERENCE")
    if ref:
        sys.path.insert(0, ref)
    from bddl.parsing import parse_problem
except Exception as e:
    why = str(e)
print("(a) parser over the corpus in memory (%d files, %.2f MB)" % (len(files), total / 1e6))
pbytes = sum(len(t.encode()) for t, _ in problems)
# The parser and the Python loop are single-threaded: the ratio gives each
# one core (GOMAXPROCS=1, the Go collector then shares the parser's core).
# With every core, the collector runs beside the parser: faster on an idle
# machine, slower when other work holds the second core; shown for
# information.
gtimes, gmbs, atimes, ptimes, failed = [], [], [], [], 0
for _ in range(runs):
    g, a = go_bench(1), go_bench(0)
    if g is None or a is None:
        print("    Go benchmark failed or its output was not understood")
        break
    gtimes.append(g[0])
    gmbs.append(g[1])
    atimes.append(a[0])
    if parse_problem is None:
        continue
    t0 = time.perf_counter()
    with contextlib.redirect_stdout(io.StringIO()):
        for text, domain in problems:
            try:
                parse_problem("activity", "0", domain, predefined_problem=text)
            except Exception:
                failed += 1
    ptimes.append(time.perf_counter() - t0)
if gtimes:
    gmin, gmed = stats(gtimes)
    amin, amed = stats(atimes)
    print("    Go BenchmarkParseCorpus     min %s  median %s  (best %.0f MB/s; GOMAXPROCS=1)" % (ms(gmin), ms(gmed), max(gmbs)))
    print("      the same on every core    min %s  median %s  (for information)" % (ms(amin), ms(amed)))
if parse_problem is None:
    print("    Python reference: SKIPPED (the bddl package is not importable: %s;" % why)
    print("    install it or set BDDL_PY_REFERENCE to a directory holding its bddl/ sources)")
elif gtimes and ptimes:
    pmin, pmed = stats(ptimes)
    print("    Python parse_problem        min %s  median %s  (%.0f MB/s over the %d problem files, %d raised)" %
          (ms(pmin), ms(pmed), pbytes / pmin / 1e6, len(problems), failed // runs))
    # Per byte, since Python parses only the problem files.
    rmin = (total / gmin) / (pbytes / pmin)
    rmed = (total / gmed) / (pbytes / pmed)
    print("    ratio Go/Python MB/s        %.2fx (minima)  %.2fx (medians)   target >= 5" % (rmin, rmed))
    print("      on every core             %.2fx (minima)  %.2fx (medians)" %
          ((total / amin) / (pbytes / pmin), (total / amed) / (pbytes / pmed)))
print()

# (b) whole-process parse against the read floor, interleaved.
floor, parse = [], []
for _ in range(runs):
    floor.append(run([os.path.join(work, "readfloor"), defs])[0])
    parse.append(run([bddl, "parse", defs])[0])
fmin, fmed = stats(floor)
bmin, bmed = stats(parse)
print("(b) whole process over the corpus")
print("    readfloor (read only)       min %s  median %s" % (ms(fmin), ms(fmed)))
print("    bddl parse                  min %s  median %s" % (ms(bmin), ms(bmed)))
print("    ratio parse/floor           %.2fx (minima)  %.2fx (medians)   target <= 1.3" % (bmin / fmin, bmed / fmed))
print()

# (c) kb show against json.load, interleaved.
jsons = sorted(glob.glob(os.path.join(kbdir, "**", "*.json"), recursive=True))
jbytes = sum(os.path.getsize(f) for f in jsons)
show = [bddl, "kb", "show", "apple.n.01", "--kb", kbdir]
cache = os.path.join(work, "kbcache")
env = dict(os.environ, BDDL_KB_CACHE=cache)
run(show, env)  # fill the cache
pyload, warm, cold, off = [], [], [], []
for i in range(runs):
    t0 = time.perf_counter()
    for f in jsons:
        with open(f) as fh:
            json.load(fh)
    pyload.append(time.perf_counter() - t0)
    warm.append(run(show, env)[0])
    coldenv = dict(os.environ, BDDL_KB_CACHE=os.path.join(work, "cold%d" % i))
    cold.append(run(show, coldenv)[0])
    off.append(run(show, dict(os.environ, BDDL_KB_CACHE="off"))[0])
jmin, jmed = stats(pyload)
print("(c) knowledge base: %d JSON files, %.1f MB" % (len(jsons), jbytes / 1e6))
print("    Python json.load (in-process) min %s  median %s" % (ms(jmin), ms(jmed)))
for name, xs in (("kb show, warm cache", warm), ("kb show, cold cache", cold), ("kb show, no cache", off)):
    smin, smed = stats(xs)
    print("    %-29s min %s  median %s   ratio json.load/show %.2fx (minima) %.2fx (medians)" %
          (name, ms(smin), ms(smed), jmin / smin, jmed / smed))
print("    target: warm-cache ratio >= 3")
print()

# (d) validate.
val = [bddl, "validate", "--kb", kbdir, defs]
walls, rss = [], []
for _ in range(runs):
    w, r = run(val, env)
    walls.append(w)
    rss.append(r)
wmin, wmed = stats(walls)
nw, nr = run(val, dict(os.environ, BDDL_KB_CACHE="off"))
print("(d) bddl validate --kb <knowledge base> <corpus> (warm cache)")
print("    wall                        min %s  median %s   target <= 1000 ms" % (ms(wmin), ms(wmed)))
print("    peak RSS                    max %.1f MB  median %.1f MB   target <= 60 MB" % (max(rss), statistics.median(rss)))
print("    one run without the cache   wall %s, peak RSS %.1f MB" % (ms(nw), nr))
print()
print("load average at end: %s %s %s" % tuple(load()))
PY
