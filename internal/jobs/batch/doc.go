// Package batch is the machinery every batch command of bddl shares:
// finding inputs, sharding them, running them on a pool of workers with
// progress and cancellation, and a results file that resumes. Commands
// (check, validate, sample, results merge) keep only their flags and
// output; this package does the rest, once.
//
// # Inputs
//
// Expand turns arguments into Inputs: files as given, directories
// walked (symbolic links followed, loops and FIFOs skipped with a note),
// doublestar globs (** crosses directories). Each Input knows the
// argument it came from (Rel, the shard key) and its cleaned absolute
// path (Key, the resume key). "-" is standard input when allowed.
//
// # Episodes and formats
//
// An episode file's Format is found by suffix (RegisterFormat). A
// format's List names the episodes a file holds, so one file can yield
// several Episodes, each named "path#sub" in reports and results
// ("run_0.hdf5#demo_3"); Open returns an *episode.Reader with its header
// read. JSONLines (.jsonl, .jsonl.gz) is registered here. To add HDF5
// run files:
//
//	func init() {
//		batch.RegisterFormat(&batch.Format{
//			Name:     "hdf5",
//			Suffixes: []string{".hdf5", ".h5"},
//			List:     listDemos, // ["demo_0", "demo_1", ...]
//			Open:     openDemo,  // ep.Path, ep.Sub → *episode.Reader
//			Fields:   demoFields, // extra result fields: {"demo": ep.Sub}
//		})
//	}
//
// Episodes(ctx, inputs) expands inputs into episodes; directories are
// walked for every registered suffix (IsEpisodeFile).
//
// # Activities
//
// A Resolver finds and compiles the activity of each episode: the
// --activity file, directory or tree (SetActivity), else the header's
// reference (a path read only inside the episode's tree or a library, or
// a name in the libraries from AddLibrary and the embedded examples).
// Programs are compiled once per definition and wildcard expansion.
//
// # Checking
//
// A Checker opens, resolves, compiles and evaluates one Episode into an
// *Outcome: an episode.Result plus Extra fields written flat into the
// same JSON line. The per-episode evaluation is a hook, Checker.Evaluate
// (default DefaultEvaluate, i.e. episode.Check), receiving the Task
// (reader, program, activity, options). `check --transitions` supplies one
// that makes a rule engine for the task and checks with
// episode.CheckOptions.AfterStep, which is called with the state after
// each step is applied and before the goal is evaluated:
//
//	c.Evaluate = func(ctx context.Context, t *batch.Task) *episode.Result {
//		eng := transitions.New(t.Program, t.Resolver.Base()) // per episode
//		opts := t.Options
//		opts.AfterStep = func(s *predicates.State, _ episode.StepInfo) error { return eng.Apply(s) }
//		return episode.Check(ctx, t.Program, t.Reader, opts)
//	}
//
// Checker.Finish post-processes an outcome (plots, extra fields) before it
// is recorded.
//
// # Running
//
// Run[T, R] runs work over items on Pool.Jobs workers. Handlers.Completed
// sees each result as soon as it is done (append it to the results file
// there, so an interrupt loses nothing); Handlers.Ordered sees results in
// input order (print them there: the progress bar is cleared first).
// A work function returns keep=false for an item cut short by
// cancellation; it is neither recorded nor printed. WithSignals gives the
// context: the first SIGINT/SIGTERM cancels it, a second exits at once.
// Nothing in Run is specific to episodes: `bddl sample` runs instances
// with it. NewProgress makes an item bar on a terminal (nil otherwise; a
// nil *Progress does nothing); NewBytesProgress a bar by bytes for one
// long job. In cmd/bddl, batchFlags gives any batch command --shard,
// --jobs and --no-progress with the same meaning, and its pool() and
// progress() build the Pool.
//
// # Sharding
//
// ParseShard reads --shard I/N; Select keeps the items of one shard by a
// stable hash of a key. Use the path relative to the argument
// (Input.Rel, Episode.ShardKey) or, for generated items, a key made of
// the command's inputs (activity and instance number), never an absolute
// path or a random value: every machine must compute the same key.
//
// # Results files
//
// OpenResults opens a JSON Lines results file for appending under an
// exclusive advisory lock (a second writer is refused), drops a partial
// last line, and reads the Records already there; Append writes one value
// as one line with one write. PlanResume matches the items to run
// against the records by key: done ones are skipped, errored ones retried.
// A results line must carry "episode" (the item's name as given); any
// other fields are kept. ReadResults, MergeResults and WriteSummary serve
// `bddl results merge` and the summary table. A command writing records of
// its own (a sample per instance) appends any value with a flat JSON form
// whose "episode" names the item; MarshalLine is the encoder of every JSON
// line.
//
// # Definitions
//
// LoadLibrary loads an activity_definitions tree (links followed, special
// files skipped, each file at most fsutil.DefinitionLimit).
// ExpandDefinitions expands the command-line paths of parse, validate,
// fmt and sample; ReadDefinition reads one within the limit;
// ParseDefinitions and EachParsed parse them on all cores in input order.
//
// # How a job ends
//
// A job returns an error of a class its command maps to an exit status:
// a *UsageError (Usage) is the caller's mistake (2), a *FindingsError
// (Findings) a run that reported problems (1), an *InterruptedError a
// run cut short by a signal; any other error is the job's own failure.
package batch
