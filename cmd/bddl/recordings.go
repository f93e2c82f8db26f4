package main

import (
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/openbddl/bddl/episode/recording"
	"github.com/openbddl/bddl/internal/jobs/episodes"
)

// Real-robot recordings: Oopsie's HDF5 episodes and Dora-record's
// Parquet sessions, joined with object tracks into episodes (see
// docs/recordings.md).

// recordingFlags are the flags of every command that reads recordings.
type recordingFlags struct {
	mapPath string
	objects string
	rate    float64
	maxGap  float64
}

func (f *recordingFlags) add(fs *pflag.FlagSet, withMap bool) {
	if withMap {
		fs.StringVar(&f.mapPath, "map", "", "a YAML map: the activity, the agent's streams and footprint, track names, rooms, static objects (docs/recordings.md)")
	}
	fs.StringVar(&f.objects, "objects", "", "the object track of a single episode (default: X.objects.jsonl beside each episode X)")
	fs.Float64Var(&f.rate, "rate", 0, "steps per second (default: the slowest stream's, the track's included)")
	fs.Float64Var(&f.maxGap, "max-gap", recording.DefaultMaxGap, "the longest time (s) a stream may go without a sample")
}

// settings are the flags' values, for the jobs.
func (f *recordingFlags) settings() *episodes.Recordings {
	return &episodes.Recordings{MapPath: f.mapPath, Objects: f.objects, Rate: f.rate, MaxGap: f.maxGap}
}

type fromRecordingOptions struct {
	episodeWriteOptions
	recordingFlags
	layout string
	format string
	gzip   bool
}

func newEpisodeFromOopsieCmd(g *globalOptions) *cobra.Command {
	return newEpisodeFromRecordingCmd(g, "oopsie", "from-oopsie PATH... -o OUT", "Write Oopsie HDF5 episodes joined with object tracks as episode files",
		`Every .h5/.hdf5 file under the PATHs is an Oopsie episode (schema
oopsiedata_format_v1). Its robot streams (the gripper, actions/base_position
when it holds data) are joined with the object track X.objects.jsonl beside
the episode X.h5 (or --objects FILE for a single episode) at --rate steps per
second (default: the slowest stream's), each step taking each stream's latest
sample at or before it; a stream going back in time, or silent for more than
--max-gap seconds, is an error. The robot is the activity's agent: a box of
the map's footprint at its base pose (nextto, touching), its room (inroom,
with the map's rooms:), and an open gripper holding nothing.`,
		`  bddl episode from-oopsie session/ --activity putting_the_apple_on_the_table -o episodes/
  bddl episode from-oopsie ep_0.h5 --objects tracks.jsonl --map robot.yaml -o ep_0.jsonl`)
}

func newEpisodeFromDoraCmd(g *globalOptions) *cobra.Command {
	return newEpisodeFromRecordingCmd(g, "dora", "from-dora SESSION|EPISODE... -o OUT", "Write Dora-record episodes joined with object tracks as episode files",
		`Every episode folder (one with metadata.json) under the paths is a
Dora-record episode. Its robot streams (observation.base_state for the base
pose; the map's gripper) are joined with the object track X.objects.jsonl
beside the episode folder X/ (or --objects FILE for a single episode) at
--rate steps per second (default: the slowest stream's), each step taking each
stream's latest sample at or before it (timestamp_utc); a stream going back
in time, or silent for more than --max-gap seconds, is an error. Image
streams are never read.`,
		`  bddl episode from-dora dora-record/session_1/ --activity tidying_the_living_room -o episodes/
  bddl episode from-dora dora-record/session_1/episode_000000000 --map robot.yaml -o ep.jsonl.gz`)
}

func newEpisodeFromRecordingCmd(g *globalOptions, layout, use, short, long, example string) *cobra.Command {
	opts := &fromRecordingOptions{episodeWriteOptions: episodeWriteOptions{globalOptions: g}, layout: layout}
	cmd := &cobra.Command{
		Use:   use,
		Short: short,
		Long: long + `

OUT is a directory (created if missing) that receives one X.jsonl per
episode (.jsonl.gz with --gzip), or, for a single episode, a file ending in
.jsonl or .jsonl.gz. The activity is --activity, else the map's activity:.
Files are written atomically; an episode that cannot be read in full writes
nothing and is reported with its file, stream and sample.

The exit status is 0 when every episode was written, 1 when one was not, 2 on
misuse.`,
		Example: example,
		Args:    cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runFromRecording(opts, args)
		},
	}
	f := cmd.Flags()
	f.StringVarP(&opts.out, "output", "o", "", "the directory to write to, or a .jsonl/.jsonl.gz file for a single episode")
	f.StringVar(&opts.activity, "activity", "", "the activity: a problem file or a name (default: the map's activity:)")
	f.StringVar(&opts.library, "activities", "", "a BEHAVIOR-1K activity_definitions directory to find the activity by name in")
	f.BoolVar(&opts.gzip, "gzip", false, "write .jsonl.gz files")
	f.StringVar(&opts.format, "format", "text", "output format: text or json (one JSON object per episode, JSON Lines)")
	opts.recordingFlags.add(f, true)
	opts.readFlags.add(f)
	return cmd
}

func runFromRecording(opts *fromRecordingOptions, paths []string) error {
	if err := checkFormat(opts.format); err != nil {
		return err
	}
	return exitFor(episodes.FromRecordings(opts.source(), opts.recordingFlags.settings(), paths, opts.layout, episodes.Output{
		Out: opts.out, JSON: opts.format == "json", Gzip: opts.gzip, Stdout: opts.streams.out, Stderr: opts.err}))
}
