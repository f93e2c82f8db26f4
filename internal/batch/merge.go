package batch

import (
	"bytes"
	"path/filepath"
)

// Merged is the outcome of MergeResults.
type Merged struct {
	// Records are the merged records, one per episode, in the order each
	// episode first appears.
	Records []Record
	// Duplicates counts the lines dropped as repeats of an episode.
	Duplicates int
}

// MergeResults merges results files (from shards, or from runs resumed
// several times) into one record per episode. Episodes are matched by
// their "episode" field as written, cleaned (not made absolute: shards
// run on machines that mount the data in different places, by the same
// relative command). Of several records of one episode, a verdict wins
// over an error and a later record over an earlier one.
func MergeResults(paths []string, note func(string)) (Merged, error) {
	var m Merged
	index := map[string]int{}
	for _, p := range paths {
		recs, err := ReadResults(p, note)
		if err != nil {
			return Merged{}, err
		}
		for _, r := range recs {
			k := mergeKey(r.Episode)
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
	return m, nil
}

func mergeKey(episode string) string {
	if episode == Stdin {
		return episode
	}
	return filepath.Clean(episode)
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
