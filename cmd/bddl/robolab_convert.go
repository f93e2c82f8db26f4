package main

import (
	"github.com/openbddl/bddl/internal/jobs/episodes"
	"github.com/spf13/cobra"
)

type episodeConvertOptions struct {
	episodeWriteOptions
	mapPath string
	dir     string
	gzip    bool
	format  string
}

func newEpisodeConvertCmd(g *globalOptions) *cobra.Command {
	opts := &episodeConvertOptions{episodeWriteOptions: episodeWriteOptions{globalOptions: g}}
	cmd := &cobra.Command{
		Use:   "convert RUN.hdf5... --map FILE -o DIR",
		Short: "Write the demos of RoboLab run files as episode files",
		Long: `Convert writes every data/demo_<k> of RoboLab run files (run_<i>.hdf5) as a
JSON Lines episode, DIR/run_<i>_demo_<k>.jsonl (.jsonl.gz with --gzip), for
users who want to keep or edit them: what 'bddl check --episode run_0.hdf5'
reads directly. --map names the BDDL instance of each RoboLab object and the
static objects RoboLab does not record (see docs/robolab.md);
the activity is --activity, else the map's activity:. The header declares
the number of steps.

A demo that cannot be read in full (a missing dataset, a shape that does
not match its steps, NaN, a file cut short) is reported with the file,
dataset and step, and no file is written for it. An existing file is
replaced atomically, keeping its mode.

The exit status is 0 when every demo was written, 1 when one was not, 2 on
misuse.`,
		Example: `  bddl episode convert output/AppleInBowlTask/run_0.hdf5 --map names.yaml -o episodes/
  bddl check --activity my_task.bddl --episode 'episodes/*.jsonl'`,
		Args: minArgs(1, "RoboLab run files (*.hdf5) or directories of them"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runEpisodeConvert(opts, args)
		},
	}
	f := cmd.Flags()
	f.StringVarP(&opts.dir, "output", "o", "", "the directory to write the episodes to (created if missing)")
	f.StringVar(&opts.mapPath, "map", "", "a YAML map of RoboLab object names to BDDL instances, and static objects")
	f.StringVar(&opts.activity, "activity", "", "the activity: a problem file or a name (default: the map's activity:)")
	f.StringVar(&opts.library, "activities", "", "a BEHAVIOR-1K activity_definitions directory to find the activity by name in")
	f.BoolVar(&opts.gzip, "gzip", false, "write .jsonl.gz files")
	f.StringVar(&opts.format, "format", "text", "output format: text or json (one JSON object per demo, JSON Lines)")
	return cmd
}

func runEpisodeConvert(opts *episodeConvertOptions, runs []string) error {
	if err := checkFormat(opts.format); err != nil {
		return err
	}
	return exitFor(episodes.ConvertRoboLab(opts.source(), opts.mapPath, runs, episodes.Output{Out: opts.dir, JSON: opts.format == "json",
		Gzip: opts.gzip, Stdout: opts.streams.out, Stderr: opts.err}))
}
