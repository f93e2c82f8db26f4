package main

import (
	"context"
	"time"

	"github.com/spf13/cobra"

	"github.com/openbddl/bddl/internal/termsafe"
	"github.com/openbddl/bddl/kb"
	"github.com/openbddl/bddl/lsp"
)

func init() { subcommands = append(subcommands, newLSPCmd) }

type lspOptions struct {
	*globalOptions
	debounce time.Duration
	stdio    bool // --stdio, which language clients pass; stdio is the only transport
}

func newLSPCmd(g *globalOptions) *cobra.Command {
	opts := &lspOptions{globalOptions: g}
	cmd := &cobra.Command{
		Use:   "lsp",
		Short: "Run the language server for editors (Language Server Protocol over stdio)",
		Long: `Run a Language Server Protocol server on standard input and output, for
editors: diagnostics as you type (exactly what validate --format json
reports, the fix as a quick fix where it is an edit), hover on synsets,
predicates, instances, regions and fixtures, completion, go to definition,
references, rename, document symbols, formatting (bddl fmt) and semantic
tokens, for BEHAVIOR-1K's and LIBERO's dialects.

The knowledge base is found per file as every command finds it: --kb,
$BDDL_KB, bddl.toml (looked for from the directory the editor starts the
server in), the BEHAVIOR-1K tree around the file, else the embedded default.
Log lines go to standard error. Editor set-up: docs/editors.md.`,
		Example: `  bddl lsp                                   # what an editor runs
  bddl lsp --kb ~/BEHAVIOR-1K/bddl3/bddl     # its knowledge base: the bddl package
  bddl lsp --dialect libero                  # read every file as LIBERO's`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runLSP(opts) },
	}
	cmd.Flags().DurationVar(&opts.debounce, "debounce", lsp.DefaultDebounce, "wait after a change before computing diagnostics")
	cmd.Flags().BoolVar(&opts.stdio, "stdio", true, "speak over standard input and output (the only transport; accepted for language clients)")
	_ = cmd.Flags().MarkHidden("stdio")
	return cmd
}

func runLSP(opts *lspOptions) error {
	dialect, err := opts.dialectOption()
	if err != nil {
		return err
	}
	if opts.debounce < 0 {
		return misuse("--debounce must not be negative")
	}
	debounce := opts.debounce
	if debounce == 0 {
		debounce = -1 // none
	}
	// The protocol's stream, not the escaping writer of text output: the
	// header's CR LF are the protocol's, and JSON escapes control bytes.
	err = lsp.Serve(context.Background(), opts.in, termsafe.Raw(opts.out), lsp.Options{
		KB: opts.lspKB(), Dialect: dialect, Debounce: debounce, Log: opts.err, Version: version(),
	})
	if err != nil {
		return &exitError{code: exitFindings, err: err}
	}
	return nil
}

// lspKB resolves each document's knowledge base as the other commands
// resolve a run's, with the document as the input, and loads each once.
func (g *globalOptions) lspKB() func(path string) (*kb.Base, error) {
	forPath := func(path string) *globalOptions {
		gg := *g
		gg.hints = nil
		if path != "" {
			gg.hints = []string{path}
		}
		if gg.resolveKB().value == "" {
			// No tree around the document: the embedded default, which
			// the server itself warns about per document (the guard of
			// the other commands reads files on disk and refuses a run).
			gg.hints = nil
		}
		return &gg
	}
	return lsp.CachedKB(func(path string) string { return forPath(path).resolveKB().value },
		func(path string) (*kb.Base, error) { return forPath(path).loadKB() })
}
