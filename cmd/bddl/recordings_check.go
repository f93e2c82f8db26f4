package main

import (
	"github.com/spf13/cobra"

	"github.com/openbddl/bddl/internal/jobs/batch"
	"github.com/openbddl/bddl/internal/jobs/robotcheck"
)

// check reads Oopsie and Dora-record recordings directly: the formats and
// the run's state are internal/jobs/robotcheck's; here are the flags.

func init() { checkExtensions = append(checkExtensions, recordingCheckExtension) }

// hasRecordings reports whether any input is an Oopsie or Dora recording.
func hasRecordings(inputs []batch.Input) bool { return robotcheck.HasRecordings(inputs) }

func recordingCheckExtension(cmd *cobra.Command, o *checkOptions) {
	var flags recordingFlags
	flags.add(cmd.Flags(), false) // --map is RoboLab's flag, shared
	cmd.Long = insertParagraph(cmd.Long, "--out FILE", `Real-robot recordings are read directly: Oopsie episodes (*.h5, *.hdf5 with
schema oopsiedata_format_v1) and Dora-record episodes (a folder with
metadata.json; a session is walked for them), each joined with its object
track X.objects.jsonl (--objects FILE for a single episode) at --rate steps
per second; --map gives the agent's streams and footprint, the track's names,
rooms and static objects (docs/recordings.md). Result lines add the layout
and Oopsie's language_instruction, episode_id and lab_id.`)
	cmd.Example += "\n  bddl check --episode oopsie_session/ --map robot.yaml"
	rc := &robotcheck.Recordings{}
	o.inputs = append(o.inputs, func(in []batch.Input) ([]batch.Input, error) {
		rc.Objects, rc.Rate, rc.MaxGap = flags.objects, flags.rate, flags.maxGap
		if f := cmd.Flags().Lookup("map"); f != nil {
			rc.MapPath = f.Value.String()
		}
		kept, err := rc.Setup(&o.activity, in)
		if err != nil {
			return nil, misuse("%v", err)
		}
		return kept, nil
	})
	o.prepare = append(o.prepare, func(c *batch.Checker) error {
		if err := rc.Prepare(c); err != nil {
			return misuse("%v", err)
		}
		return nil
	})
	o.summaries = append(o.summaries, rc.Report)
}
