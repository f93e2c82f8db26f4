package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/openbddl/bddl/activities"
	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/internal/fsutil"
	"github.com/openbddl/bddl/kb"
	"github.com/openbddl/bddl/predicates"
	"github.com/openbddl/bddl/transitions"
)

func init() { subcommands = append(subcommands, newTransitionCmd) }

func newTransitionCmd(g *globalOptions) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "transition",
		Short: "List, explain and try the knowledge base's transition rules",
		Long: `Transition rules turn objects into others: slicing an apple into halves,
dicing, melting, cooking dough into cookies on a heat source, blending a
smoothie, mixing lemonade, cooking substances, washing and drying. These
commands show the rules of the knowledge base (--kb) as 'bddl check
--transitions' and 'bddl episode apply-rules' apply them.`,
		Example: `  bddl transition list --family heat_cook
  bddl transition list --synset apple.n.01 --format json
  bddl transition explain sugar_cookies
  bddl transition sample strawberry_smoothie -o smoothie/`,
	}
	cmd.AddCommand(newTransitionListCmd(g), newTransitionExplainCmd(g), newTransitionSampleCmd(g))
	return cmd
}

type transitionOptions struct {
	*globalOptions
	format   string
	family   string
	synset   string
	library  string
	seed     uint64
	outDir   string
	rulesOff bool
	variant  string
}

// ---------------------------------------------------------------------
// transition list

func newTransitionListCmd(g *globalOptions) *cobra.Command {
	opts := &transitionOptions{globalOptions: g}
	cmd := &cobra.Command{
		Use:   "list [--family F] [--synset S] [--format json]",
		Short: "List the transition rules of the knowledge base",
		Long: `List every transition rule, in the order rules are applied: the recipe files
(heat_cook, single_toggleable_machine, mixing_stick, substance_cooking,
substance_watercooking, washer) in file order, the slicing, dicing and
melting rules derived from the synsets' parameters, and the dryer.
--family keeps one family; --synset keeps the rules that take, make or need
the synset (or one of its descendants) as an input, output or equipment.
--format json writes one JSON object per rule (JSON Lines).

The exit status is 1 when no rule matches.`,
		Example: `  bddl transition list --family single_toggleable_machine
  bddl --kb ../shared/behavior1k/knowledge_base transition list --synset apple.n.01 --format json`,
		Args: cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error { return runTransitionList(opts) },
	}
	cmd.Flags().StringVar(&opts.family, "family", "", "only rules of this family ("+familyNames()+")")
	cmd.Flags().StringVar(&opts.synset, "synset", "", "only rules that take, make or need this synset")
	cmd.Flags().StringVar(&opts.format, "format", "text", "output format: text or json (one JSON object per rule)")
	return cmd
}

// instanceSynset strips an instance number: apple.n.01_2 → apple.n.01.
func instanceSynset(name string) string {
	i := strings.LastIndexByte(name, '_')
	if i < 0 || i == len(name)-1 || strings.Trim(name[i+1:], "0123456789") != "" {
		return name
	}
	return name[:i]
}

func familyNames() string {
	var out []string
	for _, f := range transitions.Families {
		out = append(out, string(f))
	}
	return strings.Join(out, ", ")
}

// transitionRecord is one rule in JSON: flat, with synset → count maps as
// in the BEHAVIOR-1K files.
type transitionRecord struct {
	Family       string         `json:"family"`
	Name         string         `json:"name"`
	Inputs       map[string]int `json:"inputs"`
	InputStates  []string       `json:"input_states,omitempty"`
	Outputs      map[string]int `json:"outputs"`
	OutputStates []string       `json:"output_states,omitempty"`
	Containers   []string       `json:"containers,omitempty"`
	Machines     []string       `json:"machines,omitempty"`
	HeatSources  []string       `json:"heat_sources,omitempty"`
	Tool         string         `json:"tool,omitempty"`
	Timesteps    int            `json:"timesteps,omitempty"`
	Solvents     []string       `json:"solvents,omitempty"`
	Never        bool           `json:"never,omitempty"`
	Derived      bool           `json:"derived,omitempty"`
}

func recordOf(r transitions.Rule) transitionRecord {
	counts := func(cs []kb.SynsetCount) map[string]int {
		m := map[string]int{}
		for _, c := range cs {
			m[c.Name] = c.Count
		}
		return m
	}
	nameList := func(cs []kb.SynsetCount) []string {
		var out []string
		for _, c := range cs {
			out = append(out, c.Name)
		}
		return out
	}
	stateList := func(ss []kb.StateLiteral) []string {
		var out []string
		for _, s := range ss {
			out = append(out, s.String())
		}
		return out
	}
	return transitionRecord{Family: string(r.Family), Name: r.Name, Inputs: counts(r.Inputs), InputStates: stateList(r.InputStates),
		Outputs: counts(r.Outputs), OutputStates: stateList(r.OutputStates), Containers: nameList(r.Containers),
		Machines: nameList(r.Machines), HeatSources: nameList(r.HeatSources), Tool: r.Tool, Timesteps: r.Timesteps,
		Solvents: nameList(r.Solvents), Never: r.Never, Derived: r.Derived}
}

// mentions reports whether the rule takes, makes or needs s or a
// descendant of s.
func mentions(b *kb.Base, r transitions.Rule, s kb.SynsetID) bool {
	for _, group := range [][]kb.SynsetCount{r.Inputs, r.Outputs, r.Containers, r.Machines, r.HeatSources, r.Solvents} {
		for _, c := range group {
			if b.IsA(c.Synset, s) {
				return true
			}
		}
	}
	return false
}

func runTransitionList(opts *transitionOptions) error {
	if err := checkFormat(opts.format); err != nil {
		return err
	}
	if opts.family != "" && !slices.Contains(transitions.Families, transitions.Family(opts.family)) {
		return misuse("--family %q: use one of %s", opts.family, familyNames())
	}
	base, err := opts.loadKB()
	if err != nil {
		return misuse("%v", err)
	}
	syn := kb.NoSynset
	if opts.synset != "" {
		id, ok := base.Lookup(opts.synset)
		if !ok {
			id, ok = base.Lookup(instanceSynset(opts.synset))
		}
		if !ok {
			return misuse("--synset: %s", base.UnknownSynsetMessage(opts.synset))
		}
		syn = id
	}
	n := 0
	enc := json.NewEncoder(opts.streams.out)
	enc.SetEscapeHTML(false)
	for _, r := range transitions.Rules(base) {
		if opts.family != "" && string(r.Family) != opts.family || syn != kb.NoSynset && !mentions(base, r, syn) {
			continue
		}
		n++
		if opts.format == "json" {
			if err := enc.Encode(recordOf(r)); err != nil {
				return err
			}
			continue
		}
		fmt.Fprintln(opts.streams.out, r.Describe())
	}
	if n == 0 {
		fmt.Fprintln(opts.err, "bddl: no transition rule matches in", opts.kbSource())
		return findings()
	}
	return nil
}

// ---------------------------------------------------------------------
// transition explain

func newTransitionExplainCmd(g *globalOptions) *cobra.Command {
	opts := &transitionOptions{globalOptions: g}
	cmd := &cobra.Command{
		Use:   "explain RULE",
		Short: "Say in plain words what a rule needs and makes, and which activities need it",
		Long: `Explain a rule (by name; FAMILY/NAME when two families share a name): what
it needs (inputs with their states, container, heat source, machine or
tool), when it fires, what it makes and where, and which activities' goals
need it: those that declare a future instance of one of its outputs (in the
--activities library, else the embedded examples).`,
		Example: `  bddl transition explain sugar_cookies
  bddl --kb ../shared/behavior1k/knowledge_base transition explain apple.n.01-slicing --activities ../shared/behavior1k/activity_definitions`,
		Args: cobra.ExactArgs(1),
		RunE: func(_ *cobra.Command, args []string) error { return runTransitionExplain(opts, args[0]) },
	}
	cmd.Flags().StringVar(&opts.library, "activities", "", "a BEHAVIOR-1K activity_definitions directory whose activities to search")
	cmd.Flags().StringVar(&opts.format, "format", "text", "output format: text or json (one JSON object)")
	return cmd
}

// explainRecord is transition explain's JSON output.
type explainRecord struct {
	Family   string                    `json:"family"`
	Name     string                    `json:"name"`
	Lines    []transitions.ExplainLine `json:"lines"`
	NeededBy []string                  `json:"needed_by"`
}

func findRule(opts *transitionOptions, base *kb.Base, name string) (transitions.Rule, error) {
	r, ok := transitions.FindRule(base, name)
	if ok {
		return r, nil
	}
	var close []string
	for _, x := range transitions.Rules(base) {
		if strings.Contains(x.Name, name) || strings.Contains(name, x.Name) {
			close = append(close, string(x.Family)+"/"+x.Name)
		}
	}
	hint := "; 'bddl transition list' shows them"
	if len(close) > 0 {
		if len(close) > 5 {
			close = close[:5]
		}
		hint = "; did you mean " + strings.Join(close, ", ") + "?"
	}
	return r, misuse("no transition rule %q in %s%s", name, opts.kbSource(), hint)
}

func runTransitionExplain(opts *transitionOptions, name string) error {
	if err := checkFormat(opts.format); err != nil {
		return err
	}
	base, err := opts.loadKB()
	if err != nil {
		return misuse("%v", err)
	}
	r, err := findRule(opts, base, name)
	if err != nil {
		return err
	}
	lib := activities.Examples()
	where := "the embedded examples"
	if opts.library != "" {
		// Read as the reference reads, so official activities with a
		// defect it passes over are searched too.
		if lib, err = activities.LoadDirWith(opts.library, bddl.Options{Mode: bddl.Reference}); err != nil {
			return misuse("--activities %s: %v", opts.library, err)
		}
		where = opts.library
	}
	needed := activitiesNeeding(base, lib, r)
	if opts.format == "json" {
		rec := explainRecord{Family: string(r.Family), Name: r.Name, Lines: transitions.ExplainLines(base, r), NeededBy: needed}
		if rec.NeededBy == nil {
			rec.NeededBy = []string{}
		}
		enc := json.NewEncoder(opts.streams.out)
		enc.SetEscapeHTML(false)
		return enc.Encode(rec)
	}
	fmt.Fprint(opts.streams.out, transitions.Explain(base, r))
	if len(r.Outputs) == 0 {
		fmt.Fprintln(opts.streams.out, "  needed  by no future instance: the rule only removes")
		return nil
	}
	if len(needed) == 0 {
		fmt.Fprintf(opts.streams.out, "  needed  by no activity goal in %s\n", where)
		return nil
	}
	fmt.Fprintf(opts.streams.out, "  needed  by the goals of %d activit%s in %s: %s\n", len(needed), map[bool]string{true: "y", false: "ies"}[len(needed) == 1],
		where, strings.Join(needed, ", "))
	return nil
}

// activitiesNeeding lists the activities that declare a future instance
// an output of the rule can bind to.
func activitiesNeeding(base *kb.Base, lib *activities.Library, r transitions.Rule) []string {
	var out []string
	for _, a := range lib.Activities {
		if a.Problem == nil || a.Diagnostics.HasErrors() {
			continue
		}
		prog, err := predicates.Compile(a.Problem, base, predicates.Options{})
		if err != nil {
			continue
		}
		s := prog.InitState()
		found := false
		for id := 0; id < prog.NumObjects() && !found; id++ {
			if s.Exists(predicates.ObjectID(id)) != predicates.False {
				continue
			}
			inst, ok := base.Lookup(prog.Synset(predicates.ObjectID(id)))
			if !ok {
				continue
			}
			for _, o := range r.Outputs {
				found = found || base.IsA(o.Synset, inst)
			}
		}
		if found {
			out = append(out, a.ID())
		}
	}
	return out
}

// ---------------------------------------------------------------------
// transition sample

func newTransitionSampleCmd(g *globalOptions) *cobra.Command {
	opts := &transitionOptions{globalOptions: g}
	cmd := &cobra.Command{
		Use:   "sample RULE [--seed N] [-o DIR] [--rules-off]",
		Short: "Write a minimal episode in which a rule fires, and the state after it",
		Long: `Build the smallest scene in which a rule fires (its inputs in a fitting
container on an active heat source, in a machine that is switched on, under
a knife, ...) as an activity definition and a recorded episode: the steps
up to the trigger, the last with the rule's outcome written as ordinary
recorded fields. Checking the episode finds the goal (the rule's outputs
exist with their states) true. With --rules-off the outcome is left out, as
a simulator with transition rules off records it: the goal then holds only
under 'bddl check --transitions'.

Without -o the episode goes to stdout, its header naming the sample's
problem and carrying the definition in "meta"; with -o DIR the definition
is written to DIR/problem0.bddl and the episode to DIR/sample.jsonl, ready
for 'bddl check --episode DIR/sample.jsonl'. --variant builds one of the
negative cases instead (the rule must not fire): ` + variantNames() + `.`,
		Example: `  bddl transition sample sugar_cookies -o cookies/ && bddl check --episode cookies/sample.jsonl
  bddl transition sample apple.n.01-slicing --rules-off -o slicing/ && bddl check --transitions --episode slicing/sample.jsonl`,
		Args: cobra.ExactArgs(1),
		RunE: func(_ *cobra.Command, args []string) error { return runTransitionSample(opts, args[0]) },
	}
	cmd.Flags().Uint64Var(&opts.seed, "seed", 1, "random seed for the positions")
	cmd.Flags().StringVarP(&opts.outDir, "output", "o", "", "write DIR/problem0.bddl and DIR/sample.jsonl (default: the episode on stdout)")
	cmd.Flags().BoolVar(&opts.rulesOff, "rules-off", false, "leave the rule's outcome out of the episode, as recorded with rules off")
	cmd.Flags().StringVar(&opts.variant, "variant", "positive", "positive, or a negative case")
	return cmd
}

func variantNames() string {
	var out []string
	for _, v := range transitions.Variants()[1:] {
		out = append(out, v.String())
	}
	return strings.Join(out, ", ")
}

func runTransitionSample(opts *transitionOptions, name string) error {
	variant := transitions.Variant(255)
	for _, v := range transitions.Variants() {
		if v.String() == opts.variant {
			variant = v
		}
	}
	if variant == 255 {
		return misuse("--variant %q: use positive or one of %s", opts.variant, variantNames())
	}
	base, err := opts.loadKB()
	if err != nil {
		return misuse("%v", err)
	}
	r, err := findRule(opts, base, name)
	if err != nil {
		return err
	}
	res, err := transitions.Sample(base, r, transitions.SampleOptions{Seed: opts.seed, Variant: variant})
	switch {
	case errors.Is(err, transitions.ErrNotApplicable):
		return misuse("--variant %s does not apply to %s %s", variant, r.Family, r.Name)
	case errors.Is(err, transitions.ErrNeverFires):
		fmt.Fprintf(opts.err, "bddl: %s %s never fires: there is no scene to sample\n", r.Family, r.Name)
		return findings()
	case err != nil:
		return err
	}
	shadowed := false
	if variant == transitions.Positive && !res.Outcome.Fired() {
		// An earlier recipe of the file with the same inputs fires first;
		// show this one alone, and say so.
		fmt.Fprintf(opts.err, "bddl: %s %s does not fire in its sample: an earlier recipe of the file takes the same inputs; showing it alone\n", r.Family, r.Name)
		shadowed = true
		if res, err = transitions.Sample(base, r, transitions.SampleOptions{Seed: opts.seed, Alone: true}); err != nil {
			return err
		}
	}
	activity := res.Program.Problem().Name.Name
	if opts.outDir != "" {
		activity = "problem0.bddl"
	}
	meta, _ := json.Marshal(map[string]any{"rule": r.Name, "family": r.Family, "variant": variant.String(),
		"rules_off": opts.rulesOff, "seed": opts.seed, "definition": res.Definition})
	states := res.Steps
	if !opts.rulesOff {
		states = append(slices.Clone(states[:len(states)-1]), res.After)
	}
	var buf bytes.Buffer
	if err := writeStatesEpisode(&buf, res.Program, activity, meta, states); err != nil {
		return err
	}
	if opts.outDir == "" {
		if _, err := opts.streams.out.Write(buf.Bytes()); err != nil {
			return err
		}
		if shadowed {
			return findings()
		}
		return nil
	}
	if err := os.MkdirAll(opts.outDir, 0o755); err != nil {
		return misuse("-o %s: %v", opts.outDir, err)
	}
	def, ep := filepath.Join(opts.outDir, "problem0.bddl"), filepath.Join(opts.outDir, "sample.jsonl")
	for _, f := range []struct {
		path string
		data []byte
	}{{def, []byte(res.Definition)}, {ep, buf.Bytes()}} {
		if err := writeOrReplace(f.path, f.data); err != nil {
			return err
		}
	}
	fmt.Fprintf(opts.err, "wrote %s and %s\n", def, ep)
	if shadowed {
		return findings()
	}
	return nil
}

// writeOrReplace creates a file, or replaces an existing one atomically
// keeping its mode and owner.
func writeOrReplace(path string, data []byte) error {
	if _, err := os.Lstat(path); err == nil {
		return fsutil.WriteFileAtomic(path, data)
	}
	return os.WriteFile(path, data, 0o644)
}
