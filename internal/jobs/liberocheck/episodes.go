package liberocheck

import (
	"fmt"

	"github.com/openbddl/bddl/internal/jobs/batch"
	"github.com/openbddl/bddl/libero"
)

// Episodes expands check's episode arguments as check expands them
// (standard input stays with the BEHAVIOR-1K path) and says whether they
// are LIBERO episodes: ok is false when none is (or they cannot be
// expanded: the BEHAVIOR-1K path reports that); LIBERO episodes mixed with
// others are an error, as the BEHAVIOR-1K path would stop at the LIBERO
// header with "not a bddl episode header".
func Episodes(args []string) (ins []batch.Input, ok bool, err error) {
	ins, err = batch.Expand(args, batch.ExpandOptions{What: "episodes", Match: batch.IsEpisodeFile,
		Describe: batch.EpisodeSuffixes()})
	if err != nil || len(ins) == 0 {
		return nil, false, nil
	}
	first, other := "", ""
	for _, in := range ins {
		switch {
		case !libero.IsEpisodeFile(in.Path):
			other = in.Path
		case first == "":
			first = in.Path
		}
	}
	switch {
	case first == "":
		return nil, false, nil
	case other != "":
		return nil, true, fmt.Errorf("LIBERO episodes (%s) and BEHAVIOR-1K ones (%s) cannot be checked in one run: check them separately", first, other)
	}
	return ins, true, nil
}
