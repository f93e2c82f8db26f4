#!/usr/bin/env bash
# ogbench.sh measures the conversion and :init check of a 301-instance
# OmniGibson task folder on one core (BenchmarkConvertTaskFolder) against a
# plain read of the same files in the same run, and prints instances per
# second and the slowdown ratio (read / convert), minimum and median over
# RUNS runs, with the load average.
#
# Usage: tools/ogbench.sh [RUNS]   (default 5; BDDL_CORPUS, BDDL_OMNIGIBSON
# as for the tests)
set -euo pipefail
runs=${1:-5}
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
go test ./episode/omnigibson -run XXX -bench ConvertTaskFolder -cpu 1 -benchtime 3x -count "$runs" |
	awk '
	/^BenchmarkConvertTaskFolder\// {
		name = $1; sub(/^BenchmarkConvertTaskFolder\//, "", name)
		for (i = 2; i <= NF; i++) if ($(i+1) == "instances/s") v = $i
		n[name]++; val[name, n[name]] = v
	}
	function sorted(a, k,   i, j, t) {
		for (i = 2; i <= k; i++) for (j = i; j > 1 && a[j-1] > a[j]; j--) { t = a[j]; a[j] = a[j-1]; a[j-1] = t }
	}
	END {
		split("convert convert+check convert,offsets=none", names, " ")
		for (m = 1; m <= 3; m++) {
			name = names[m]; k = n[name]
			if (k == 0) continue
			delete r; delete s
			for (i = 1; i <= k; i++) { s[i] = val[name, i]; r[i] = val["read", i] / val[name, i] }
			sorted(s, k); sorted(r, k)
			printf "%-22s instances/s min %.0f median %.0f;  read/%s ratio min %.1f median %.1f  (%d runs)\n", name, s[1], s[int((k+1)/2)], name, r[1], r[int((k+1)/2)], k
		}
	}'
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
