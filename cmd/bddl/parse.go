package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/internal/jobs/batch"
)

func init() { subcommands = append(subcommands, newParseCmd) }

type parseOptions struct {
	*globalOptions
	format string
	paths  []string
}

func newParseCmd(g *globalOptions) *cobra.Command {
	opts := &parseOptions{globalOptions: g}
	cmd := &cobra.Command{
		Use:   "parse [--format text|json] PATH...",
		Short: "Parse BDDL files and report syntax errors",
		Long: `Parse problem and domain files. Directories are walked for *.bddl files
(symbolic links followed; FIFOs and devices skipped with a note); globs may
use ** to cross directories; "-" reads standard input. Finding no file is
an error (exit 2).
Syntax errors are printed on stderr with their file:line:col, the source line
and a fix; every independent error of a file is reported, up to a cap.
With --format json, each file's AST (with source ranges) and diagnostics are
printed on stdout, one JSON object per line.`,
		Example: `  bddl parse problem0.bddl
  bddl parse BEHAVIOR-1K/bddl3/bddl/activity_definitions
  bddl parse --format json problem0.bddl | jq .problem.goal`,
		Args: minArgs(1, "definition files or directories (- for standard input)"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.paths = args
			return runParse(opts)
		},
	}
	cmd.Flags().StringVar(&opts.format, "format", "text", "output format: text or json")
	return cmd
}

// parseRecord is the JSON output for one file.
type parseRecord struct {
	File        string           `json:"file"`
	Problem     *bddl.Problem    `json:"problem,omitempty"`
	Domain      *bddl.Domain     `json:"domain,omitempty"`
	Diagnostics bddl.Diagnostics `json:"diagnostics"`
}

func runParse(opts *parseOptions) error {
	if err := checkFormat(opts.format); err != nil {
		return err
	}
	dialect, err := opts.dialectOption()
	if err != nil {
		return err
	}
	// Files are read and parsed while the paths are still being walked,
	// and each file's report is printed as soon as it and all before it
	// are done; no AST outlives its file's report.
	out := bufio.NewWriter(opts.out)
	files, failed := 0, 0
	err = batch.Stream(0, func(yield func(batch.Input)) error {
		return opts.expandDefinitionsEach(opts.paths, yield)
	}, func() func(batch.Input) parseReport {
		w := parseWorker{stdin: opts.in, json: opts.format == "json", dialect: dialect}
		return w.report
	}, func(r parseReport) error {
		files++
		if r.failed {
			failed++
		}
		if len(r.stderr) > 0 {
			// Diagnostics go out before the file's record, as unbuffered.
			if err := out.Flush(); err != nil {
				return err
			}
			if _, err := opts.err.Write(r.stderr); err != nil {
				return err
			}
		}
		if r.err != nil {
			return r.err
		}
		_, err := out.Write(r.stdout)
		return err
	})
	if err != nil {
		out.Flush()
		return err
	}
	if opts.format == "text" {
		fmt.Fprintf(out, "%d %s parsed, %d with errors\n", files, plural(files, "file", "files"), failed)
	}
	if err := out.Flush(); err != nil {
		return err
	}
	if failed > 0 {
		return findings()
	}
	return nil
}

// parseReport is what parse prints for one file, rendered by the worker
// that parsed it.
type parseReport struct {
	stderr []byte // the read error or the diagnostics, as text
	stdout []byte // the JSON record, with --format json
	failed bool   // unreadable, or errors among the diagnostics
	err    error  // the record could not be encoded
}

// parseWorker reads, parses and renders files one after another, reusing
// its read buffer: the AST is dropped once rendered.
type parseWorker struct {
	stdin   io.Reader
	json    bool
	dialect bddl.Dialect
	buf     []byte
	out     bytes.Buffer
	enc     *json.Encoder
}

func (w *parseWorker) report(in batch.Input) parseReport {
	src, err := readDefinitionInto(in, w.stdin, &w.buf)
	if err != nil {
		return parseReport{stderr: []byte(err.Error() + "\n"), failed: true}
	}
	f, diags := bddl.Options{Dialect: w.dialect}.ParseFile(in.Path, src)
	r := parseReport{failed: diags.HasErrors()}
	if len(diags) > 0 {
		w.out.Reset()
		diags.WriteText(&w.out)
		r.stderr = bytes.Clone(w.out.Bytes())
	}
	if w.json {
		if w.enc == nil {
			w.enc = jsonLines(&w.out)
		}
		rec := parseRecord{File: in.Path, Problem: f.Problem, Domain: f.Domain, Diagnostics: diags}
		if rec.Diagnostics == nil {
			rec.Diagnostics = bddl.Diagnostics{}
		}
		w.out.Reset()
		if r.err = w.enc.Encode(rec); r.err == nil {
			r.stdout = bytes.Clone(w.out.Bytes())
		}
	}
	// Rendered: the next file's parse reuses the tree's memory.
	f.Release()
	return r
}

// checkFormat validates a --format flag value.
func checkFormat(format string) error {
	if format != "text" && format != "json" {
		return misuse("--format must be text or json, not %q", format)
	}
	return nil
}
