package main

// The LIBERO dialect in the existing commands: parse and fmt read it
// through bddl's dialect detection; validate, explain, sample and check
// hand LIBERO definitions and episodes to the libero package through the
// small hooks below, so their BEHAVIOR-1K paths are unchanged.

import (
	"bytes"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/internal/jobs/validaterun"
	"github.com/openbddl/bddl/libero"
)

// dialectOption reads --dialect.
func (g *globalOptions) dialectOption() (bddl.Dialect, error) {
	d, err := bddl.ParseDialect(g.dialect)
	if err != nil {
		return d, misuse("--dialect: %v", err)
	}
	return d, nil
}

// isLibero reports whether the definition is read as LIBERO under --dialect.
func (g *globalOptions) isLibero(src []byte) bool {
	d, _ := bddl.ParseDialect(g.dialect)
	return validaterun.IsLibero(d, src)
}

// sampleLibero samples LIBERO definitions when every argument is one; it
// reports whether it handled the command.
func sampleLibero(cmd *cobra.Command, opts *sampleOptions, args []string) (bool, error) {
	if len(args) == 0 || opts.after != "" {
		return false, nil
	}
	var defs []libero.Definition
	for _, a := range args {
		if _, err := os.Stat(a); err != nil {
			return false, nil // an example's name
		}
	}
	ins, err := opts.expandDefinitions(args)
	if err != nil || len(ins) == 0 {
		return false, nil
	}
	for _, in := range ins {
		src, err := readDefinition(in, opts.in)
		if err != nil || !opts.isLibero(src) {
			return false, nil
		}
		defs = append(defs, libero.Definition{Path: in.Path, Rel: in.Rel, Src: bytes.Clone(src)})
	}
	// The flags a LIBERO sample cannot honour are refused, not ignored:
	// its sampler places bodies in the regions the definition gives, on
	// LIBERO's own table, and records poses without extents to draw.
	for _, name := range []string{"svg", "scene", "scene-file", "goal", "sampling-lists", "no-shrink", "shard"} {
		if f := cmd.Flags().Lookup(name); f != nil && f.Changed {
			return true, misuse("--%s: not supported for LIBERO definitions (they are sampled in the regions they name, on LIBERO's table, as body poses without extents)", name)
		}
	}
	if opts.out == "" {
		return true, misuse("sample needs -o OUT, the directory to write configurations to")
	}
	if err := os.MkdirAll(opts.out, 0o755); err != nil {
		return true, misuse("-o %s: %v", opts.out, err)
	}
	sampled, done, failed, err := libero.SampleDefinitions(defs, libero.SampleFiles{Out: opts.out, Seed: opts.seed, Count: opts.count, Diagnostics: opts.err},
		libero.SampleLines(opts.globalOptions.out, opts.format == "json"))
	if err != nil {
		return true, err
	}
	if opts.format == "text" {
		fmt.Fprintf(opts.globalOptions.out, "%d of %d configurations sampled\n", sampled, done)
	}
	if failed {
		return true, findings()
	}
	return true, nil
}
