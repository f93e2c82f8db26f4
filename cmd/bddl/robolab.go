package main

import (
	"github.com/spf13/cobra"

	"github.com/openbddl/bddl/internal/cliflag"
	"github.com/openbddl/bddl/internal/jobs/batch"
	"github.com/openbddl/bddl/internal/jobs/robotcheck"
)

// check reads RoboLab run files (run_<i>.hdf5) directly, one episode per
// data/demo_<k> group, named run_0.hdf5#demo_3: the format and the run's
// state are internal/jobs/robotcheck's; here are the flags.

func init() { checkExtensions = append(checkExtensions, roboLabCheckExtension) }

// roboLabCheckExtension adds check's RoboLab flags and hooks: the map and
// activity before the run, the demos' streams opened with them, their
// results completed, and the agreement with RoboLab's verdicts after.
func roboLabCheckExtension(cmd *cobra.Command, o *checkOptions) {
	rl := &robotcheck.RoboLab{}
	f := cmd.Flags()
	f.StringVar(&rl.MapPath, "map", "", "a YAML map: for RoboLab run files, object names and static objects (see docs/robolab.md); for Oopsie/Dora recordings, the agent, track names, rooms and static objects (docs/recordings.md)")
	f.StringVar(&rl.ResultsPath, "robolab-results", "", "RoboLab run files: RoboLab's episode_results.jsonl to compare verdicts with (default: beside the run file or in its parent directory)")
	cmd.Long = insertParagraph(cmd.Long, "-o/--output FILE", `RoboLab run files (*.hdf5, *.h5) are read directly: every data/demo_<k> is
an episode named run_0.hdf5#demo_3. --map FILE names the BDDL instance of
each RoboLab object and gives the static objects (see docs/robolab.md); the
activity is --activity or the map's activity:. Result lines add RoboLab's
env_name, env_id, run and dt, and with its episode_results.jsonl (beside the
run file or its directory, or --robolab-results FILE) its verdict and how
ours agrees, summed up after the run.`)
	cmd.Example += "\n  bddl check --episode output/AppleInBowlTask/run_0.hdf5 --map names.yaml"
	o.inputs = append(o.inputs, func(in []batch.Input) ([]batch.Input, error) {
		kept, err := rl.Setup(&o.activity, o.err, in)
		if err != nil {
			return nil, misuse("%v", err)
		}
		return kept, nil
	})
	o.prepare = append(o.prepare, rl.Prepare)
	o.summaries = append(o.summaries, rl.Report)
}

// insertParagraph puts a paragraph into a command's help text.
var insertParagraph = cliflag.InsertParagraph
