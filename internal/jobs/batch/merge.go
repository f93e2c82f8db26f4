package batch

import (
	"bytes"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Merged is the outcome of MergeResults.
type Merged struct {
	// Records are the merged records, one per episode, in the order each
	// episode first appears.
	Records []Record
	// Duplicates counts the lines dropped as repeats of an episode.
	Duplicates int
	// Dropped counts the lines left out: not results, cut short, or
	// holding a field out of its range (Invalid of them).
	Dropped, Invalid int
	// Problems say what makes the merge incomplete or doubtful: missing
	// shards, shards with fewer episodes than they had, lines dropped,
	// shards of different counts. The merge is complete when empty.
	Problems []string
}

// Complete reports whether the merge holds every result its shards had.
func (m Merged) Complete() bool { return len(m.Problems) == 0 }

// MergeResults merges results files (from shards, or from runs resumed
// several times) into one record per episode. Episodes are matched by
// the path relative to their --episode argument that the line records
// (the same on every machine, whatever its mount points or working
// directory), else by their "episode" field cleaned. Of several records
// of one episode, a verdict wins over an error and a later record over
// an earlier one. Every field read is checked against its range; a line
// out of range is dropped and reported. Lines carry their shard and its
// episode count, so the merge reports shards missing or short.
func MergeResults(paths []string, note func(string)) (Merged, error) {
	var m Merged
	index := map[string]int{}
	for _, p := range paths {
		recs, dropped, err := readResultsCounted(p, note)
		if err != nil {
			return Merged{}, err
		}
		m.Dropped += dropped
		for _, r := range recs {
			if msg := r.invalid(); msg != "" {
				note(fmt.Sprintf("%s: %s: dropped", r.Where, msg))
				m.Dropped++
				m.Invalid++
				continue
			}
			k := mergeKey(r)
			i, seen := index[k]
			if !seen {
				index[k] = len(m.Records)
				m.Records = append(m.Records, r)
				continue
			}
			m.Duplicates++
			if old := m.Records[i]; !r.Errored() || old.Errored() {
				m.Records[i] = r
			}
		}
	}
	if m.Dropped > 0 {
		m.Problems = append(m.Problems, fmt.Sprintf("%d %s dropped (not results, cut short or out of range): their episodes may be missing", m.Dropped, plural(m.Dropped, "line", "lines")))
	}
	m.Problems = append(m.Problems, shardProblems(m.Records)...)
	return m, nil
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func mergeKey(r Record) string {
	if r.Rel != "" {
		return "rel:" + filepath.Clean(r.Rel)
	}
	if r.Episode == Stdin {
		return r.Episode
	}
	return filepath.Clean(r.Episode)
}

// invalid says which field of the record is out of its range; "" when
// none is.
func (r *Record) invalid() string {
	unit := func(name string, v float64) string {
		if math.IsNaN(v) || v < 0 || v > 1 {
			return fmt.Sprintf("%s %v is outside [0, 1]", name, v)
		}
		return ""
	}
	if msg := unit("score", r.Score); msg != "" {
		return msg
	}
	if msg := unit("challenge_score", r.ChallengeScore); msg != "" {
		return msg
	}
	if r.Success && r.Error != "" {
		return "both a success and an error"
	}
	if v := r.EpisodeStep; v != nil && (*v < 0 || *v != math.Trunc(*v) || *v > 1<<53) {
		return fmt.Sprintf("episode_step %v is not a step number", *v)
	}
	if v := r.Duration; v != nil && (*v < 0 || math.IsInf(*v, 0)) {
		return fmt.Sprintf("duration %v is negative or infinite", *v)
	}
	if r.Shard != "" {
		if _, err := ParseShard(r.Shard); err != nil {
			return fmt.Sprintf("shard %q is not I/N", r.Shard)
		}
	}
	if r.ShardInputs < 0 {
		return fmt.Sprintf("shard_inputs %d is negative", r.ShardInputs)
	}
	return ""
}

// shardProblems finds the shards missing from the records, and those
// with fewer episodes than they had inputs.
func shardProblems(recs []Record) []string {
	type shardInfo struct{ inputs, got int }
	byCount := map[int]map[int]*shardInfo{} // N → I → info
	unmarked := 0
	for _, r := range recs {
		if r.Shard == "" {
			unmarked++
			continue
		}
		i, n := shardParts(r.Shard)
		if byCount[n] == nil {
			byCount[n] = map[int]*shardInfo{}
		}
		si := byCount[n][i]
		if si == nil {
			si = &shardInfo{}
			byCount[n][i] = si
		}
		si.got++
		si.inputs = max(si.inputs, r.ShardInputs)
	}
	var out []string
	counts := make([]int, 0, len(byCount))
	for n := range byCount {
		counts = append(counts, n)
	}
	slices.Sort(counts)
	if len(counts) > 1 {
		out = append(out, fmt.Sprintf("results of runs sharded %s ways: merge the shards of one run", joinInts(counts)))
	}
	for _, n := range counts {
		var missing []int
		for i := range n {
			si := byCount[n][i]
			switch {
			case si == nil:
				missing = append(missing, i)
			case si.got < si.inputs:
				out = append(out, fmt.Sprintf("shard %d/%d: %d of its %d episodes", i, n, si.got, si.inputs))
			}
		}
		if len(missing) > 0 {
			parts := make([]string, len(missing))
			for k, i := range missing {
				parts[k] = fmt.Sprintf("%d/%d", i, n)
			}
			out = append(out, fmt.Sprintf("%s missing: no result of %s", plural(len(missing), "shard", "shards"), strings.Join(parts, ", ")))
		}
	}
	if unmarked > 0 && len(counts) > 0 {
		out = append(out, fmt.Sprintf("%d %s without a shard mixed with sharded ones", unmarked, plural(unmarked, "line", "lines")))
	}
	return out
}

func shardParts(s string) (i, n int) {
	a, b, _ := strings.Cut(s, "/")
	i, _ = strconv.Atoi(a)
	n, _ = strconv.Atoi(b)
	return i, n
}

func joinInts(v []int) string {
	parts := make([]string, len(v))
	for i, x := range v {
		parts[i] = strconv.Itoa(x)
	}
	return strings.Join(parts, ", ")
}

// Lines are the records' lines as they were read, each ending in "\n".
func (m Merged) Lines() []byte {
	var b bytes.Buffer
	for _, r := range m.Records {
		b.Write(r.Line)
		b.WriteByte('\n')
	}
	return b.Bytes()
}
