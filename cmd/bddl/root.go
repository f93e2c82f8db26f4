package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/openbddl/bddl/internal/cliflag"
	"github.com/openbddl/bddl/internal/config"
	"github.com/openbddl/bddl/internal/jobs/batch"
	"github.com/openbddl/bddl/internal/termsafe"
)

// Exit codes shared by every command.
const (
	exitOK       = 0 // clean run, goal satisfied, no findings
	exitFindings = 1 // diagnostics, findings or failures were reported
	exitMisuse   = 2 // bad flags, arguments or configuration
	// check.go adds exitInterrupted (130) for an interrupted batch.
)

// exitError carries an exit code through cobra's RunE without printing twice.
type exitError struct {
	code int
	err  error // nil when the command already reported everything
}

func (e *exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit status %d", e.code)
	}
	return e.err.Error()
}

func (e *exitError) Unwrap() error { return e.err }

// exitFor maps the class of a job's error (batch.UsageError,
// FindingsError, InterruptedError) to the exit status it asks for.
func exitFor(err error) error {
	var u *batch.UsageError
	var f *batch.FindingsError
	var i *batch.InterruptedError
	switch {
	case errors.As(err, &u):
		return &exitError{code: exitMisuse, err: u.Err}
	case errors.As(err, &f):
		return &exitError{code: exitFindings, err: f.Err}
	case errors.As(err, &i):
		return &exitError{code: exitInterrupted, err: i.Err}
	}
	return err
}

// findings reports that the command ran and printed findings: exit 1.
func findings() error { return &exitError{code: exitFindings} }

// misuse reports a usage or configuration problem: exit 2.
func misuse(format string, args ...any) error {
	return &exitError{code: exitMisuse, err: fmt.Errorf(format, args...)}
}

// streams are the command's standard streams; tests replace them.
type streams struct {
	in       io.Reader
	out, err io.Writer
	dir      string // where to look for bddl.toml; "" is the working directory
}

// globalOptions are the flags every command shares.
type globalOptions struct {
	streams
	kbPath  string // --kb, else $BDDL_KB, bddl.toml, the inputs' BEHAVIOR-1K tree, the embedded default
	dialect string // --dialect: auto, behavior1k or libero

	project     *config.Project // bddl.toml, when one is found
	fromProject []string        // the flags bddl.toml set
	hints       []string        // input paths the knowledge base may be inferred from
	started     bool            // the command's hooks ran: notes may be printed
	kbNoted     bool            // the knowledge-base note was printed
	inferred    setting         // the activity library inferred from the inputs
}

func newRootCmd(s streams) *cobra.Command {
	opts := &globalOptions{streams: s}
	root := &cobra.Command{
		Use:   "bddl",
		Short: "Parse, validate and evaluate BDDL activity definitions",
		Long: `bddl is a task definition engine for BDDL, the Behavior Domain Definition
Language of BEHAVIOR-1K: it parses and formats activity definitions, explains
them in plain words, validates them against a knowledge base, checks goal
success on recorded episodes, and samples verified initial scenes.

Exit codes: 0 clean, 1 findings (errors, failed checks), 2 misuse.`,
		Example: `  bddl parse activities/           # report syntax problems in every *.bddl file
  bddl fmt -d problem0.bddl        # show how the canonical layout differs
  bddl explain problem0.bddl       # the :init and :goal in plain words
  bddl validate activities/        # every problem of the definitions, with fixes
  bddl kb show apple.n.01          # what the knowledge base knows of a synset
  bddl check --activity baking_a_tray_of_cookies --episode episodes/   # goal success on recordings
  bddl sample cleaning_shoes -o samples/ --svg     # a verified initial scene, as an episode`,
		SilenceUsage: true,
		// "bddl chek" suggests check, as an unknown flag suggests a flag.
		SuggestionsMinimumDistance: 2,
		SilenceErrors:              true,
		Version:                    version(),
	}
	root.SetVersionTemplate("bddl {{.Version}}\n")
	root.SetIn(s.in)
	root.SetOut(s.out)
	root.SetErr(s.err)
	root.PersistentFlags().StringVar(&opts.dialect, "dialect", "auto", "BDDL dialect: auto (from :domain; robosuite is LIBERO), behavior1k or libero")
	root.PersistentFlags().StringVar(&opts.kbPath, "kb", "",
		"knowledge base: a BEHAVIOR-1K knowledge_base directory or a YAML file (default $BDDL_KB, else bddl.toml's kb, else the knowledge_base beside the inputs' activity_definitions, else the embedded default)")
	// A subcommand's own PersistentPreRunE must not replace the root's,
	// which reads bddl.toml and records the inputs.
	cobra.EnableTraverseRunHooks = true
	root.PersistentPreRunE = func(cmd *cobra.Command, args []string) error {
		cliflag.DeprecationNotes(cmd, s.err)
		p, err := config.Find(s.dir)
		if err != nil {
			return misuse("%v", err)
		}
		opts.project = p
		if err := opts.applyProject(cmd); err != nil {
			return err
		}
		opts.hintInputs(cmd, args)
		if f := cmd.Flags().Lookup("activities"); f != nil && f.Value.String() == "" {
			if a := opts.resolveActivities(""); a.value != "" {
				_ = f.Value.Set(a.value)
				opts.inferred = a
			}
		}
		opts.started = true
		return nil
	}
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return &exitError{code: exitMisuse, err: cliflag.Unknown(c, err, flagNames(c))}
	})
	for _, sub := range subcommands {
		root.AddCommand(sub(opts))
	}
	// cobra's completion command: an unknown shell is misuse, not help.
	root.InitDefaultCompletionCmd()
	for _, c := range root.Commands() {
		if c.Name() == "completion" {
			asGroup(c)
			c.Example = `  source <(bddl completion bash)                          # this shell
  bddl completion bash > /etc/bash_completion.d/bddl       # every bash
  bddl completion zsh > "${fpath[1]}/_bddl"               # zsh
  bddl completion fish > ~/.config/fish/completions/bddl.fish`
		}
	}
	return root
}

// subcommands lists the constructors of the top-level commands; each
// command's file adds itself in an init function so files stay independent.
var subcommands []func(*globalOptions) *cobra.Command

func run(args []string, in io.Reader, out, errw io.Writer) int {
	return runIn("", args, in, out, errw)
}

// runIn is run with bddl.toml looked for from dir ("": the working
// directory).
func runIn(dir string, args []string, in io.Reader, out, errw io.Writer) int {
	// Whatever a command prints passes an escaping writer: no control
	// byte from data reaches the terminal (see internal/termsafe).
	out = termsafe.NewWriter(out, paletteFor(out).on)
	errw = termsafe.NewWriter(errw, paletteFor(errw).on)
	root := newRootCmd(streams{in: in, out: out, err: errw, dir: dir})
	root.SetArgs(args)
	err := root.Execute()
	if err == nil {
		return exitOK
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.err != nil {
			fmt.Fprintln(errw, "bddl:", termsafe.Lines(ee.err.Error()))
		}
		return ee.code
	}
	// Errors cobra raises itself (unknown command, wrong argument count)
	// are misuse.
	fmt.Fprintln(errw, "bddl:", termsafe.Lines(err.Error()))
	return exitMisuse
}
