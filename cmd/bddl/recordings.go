package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/openbddl/bddl/activities"
	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/episode/recording"
	"github.com/openbddl/bddl/episode/recordings"
	"github.com/openbddl/bddl/internal/fsutil"
	"github.com/openbddl/bddl/internal/jobs/batch"
	"github.com/openbddl/bddl/predicates"
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

func (f *recordingFlags) validate() error {
	if f.rate < 0 || f.maxGap <= 0 {
		return misuse("--rate must be positive and --max-gap above 0")
	}
	return nil
}

// loadMap reads --map; nil without one.
func (f *recordingFlags) loadMap() (*recording.Map, error) {
	if f.mapPath == "" {
		return nil, nil
	}
	m, err := recording.LoadMap(f.mapPath)
	if err != nil {
		return nil, misuse("--map %v", err)
	}
	return m, nil
}

// options are the reader options for the activity compiled.
func (f *recordingFlags) options(activity string, prog *predicates.Program, m *recording.Map) recording.Options {
	return recording.Options{Activity: activity, Map: m, Track: f.objects, Rate: f.rate, MaxGap: f.maxGap, Instances: recordings.Instances(prog)}
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

// recordingActivity loads the map and compiles the activity: --activity,
// else the map's.
func (o *episodeWriteOptions) recordingActivity(rf *recordingFlags) (*predicates.Program, string, *recording.Map, error) {
	m, err := rf.loadMap()
	if err != nil {
		return nil, "", nil, err
	}
	if o.activity == "" && m != nil {
		o.activity = m.ActivityRef()
	}
	if o.activity == "" {
		return nil, "", nil, misuse("no activity: give --activity, or activity: in the --map file")
	}
	prog, _, err := o.compileActivity()
	if err != nil {
		return nil, "", nil, err
	}
	// The activity's one name (as sample and convert name it): the
	// episodes' header and the definition copy beside them, <name>.bddl.
	return prog, activities.CanonicalName(pathOf(o.activity), prog.Problem()), m, nil
}

func runFromRecording(opts *fromRecordingOptions, paths []string) error {
	if err := checkFormat(opts.format); err != nil {
		return err
	}
	if err := opts.recordingFlags.validate(); err != nil {
		return err
	}
	if opts.out == "" {
		return misuse("no output: give -o DIR (or -o FILE.jsonl for a single episode)")
	}
	eps, err := recordings.Find(paths, opts.layout)
	if err != nil {
		return misuse("%v", err)
	}
	toFile := strings.HasSuffix(opts.out, ".jsonl") || strings.HasSuffix(opts.out, ".jsonl.gz")
	if toFile && len(eps) != 1 {
		return misuse("-o %s is a file, but there are %d episodes: give a directory", opts.out, len(eps))
	}
	if opts.objects != "" && len(eps) != 1 {
		return misuse("--objects names the track of a single episode; there are %d (put each track beside its episode)", len(eps))
	}
	prog, ref, m, err := opts.recordingActivity(&opts.recordingFlags)
	if err != nil {
		return err
	}
	outDir := opts.out
	if toFile {
		outDir = filepath.Dir(opts.out)
	}
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return misuse("-o %v", err)
	}
	ropts := opts.recordingFlags.options(ref, prog, m)
	ropts.DeclareSteps = true
	failed := recordings.ConvertEach(eps, ropts, ref, recordings.ConvertAll{Out: opts.out, File: toFile, Gzip: opts.gzip,
		JSON: opts.format == "json", W: opts.streams.out, Err: opts.err})
	// The definition beside the episodes, as from-omnigibson and
	// RoboLab's convert write it, so that 'bddl check --episode OUT'
	// finds it with no --activity (batch.Resolver).
	if failed < len(eps) && opts.out != "-" {
		def := filepath.Join(outDir, batch.DefinitionFile(ref))
		if err := fsutil.WriteFileAtomic(def, definitionCopy(pathOf(opts.activity), bddl.FormatProblem(prog.Problem()))); err != nil {
			fmt.Fprintf(opts.err, "bddl: writing the definition beside the episodes: %v\n", err)
			failed++
		}
	}
	if failed > 0 {
		return findings()
	}
	return nil
}
