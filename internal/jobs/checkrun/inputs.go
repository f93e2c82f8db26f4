package checkrun

import (
	"fmt"
	"strings"

	"github.com/openbddl/bddl/internal/jobs/batch"
)

// Inputs expands check's episode arguments (files, "-", directories,
// globs) into the episode files to read. A definition among them is an
// error saying to give it as --activity; the results file out ("" for
// none) is never an episode, and nothing besides it is an error. Errors
// are the command line's misuse.
func Inputs(episodes []string, out string, note func(string)) ([]batch.Input, error) {
	inputs, err := batch.Expand(episodes, batch.ExpandOptions{What: "episodes", Match: batch.IsEpisodeFile,
		Describe: batch.EpisodeSuffixes(), Stdin: true, Note: note})
	if err != nil {
		return nil, fmt.Errorf("--episode: %v", err)
	}
	for _, in := range inputs {
		if strings.HasSuffix(in.Path, ".bddl") {
			return nil, fmt.Errorf("--episode %s is an activity definition, not an episode: give it as --activity %s, and the recordings with --episode", in.Path, in.Path)
		}
	}
	if out == "" {
		return inputs, nil
	}
	// The results file may sit among the episodes: it is not one.
	outKey := batch.PathKey(out)
	kept := inputs[:0]
	for _, in := range inputs {
		if in.Key() != outKey {
			kept = append(kept, in)
		}
	}
	if len(kept) == 0 {
		return nil, fmt.Errorf("no episodes besides the -o/--output file")
	}
	return kept, nil
}
