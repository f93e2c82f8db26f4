package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"

	"github.com/aymanbagabas/go-udiff"
	"github.com/spf13/cobra"

	"github.com/openbddl/bddl/bddl"
)

func init() { subcommands = append(subcommands, newFmtCmd) }

type fmtOptions struct {
	*globalOptions
	write, diff bool
	paths       []string
}

func newFmtCmd(g *globalOptions) *cobra.Command {
	opts := &fmtOptions{globalOptions: g}
	cmd := &cobra.Command{
		Use:   "fmt [-w|-d] PATH...",
		Short: "Rewrite BDDL files in the canonical layout",
		Long: `Print BDDL files in the canonical layout: 4-space indentation, one object
line and one :init literal per line, goal connectives spread over lines.
Comments are kept. Files with syntax errors are left alone and their errors
reported. With -w, files are rewritten in place (atomically: a temporary file
is renamed over the original); with -d, a unified diff is printed instead.`,
		Example: `  bddl fmt problem0.bddl            # print the formatted file
  bddl fmt -d activities/           # show what would change
  bddl fmt -w activities/           # rewrite in place`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.paths = args
			return runFmt(opts)
		},
	}
	cmd.Flags().BoolVarP(&opts.write, "write", "w", false, "rewrite files in place")
	cmd.Flags().BoolVarP(&opts.diff, "diff", "d", false, "print a unified diff instead of the formatted text")
	return cmd
}

func runFmt(opts *fmtOptions) error {
	if opts.write && opts.diff {
		return misuse("-w and -d cannot be combined")
	}
	files, err := collectFiles(opts.paths)
	if err != nil {
		return err
	}
	failed := false
	for _, r := range parseFiles(files) {
		if r.err != nil {
			fmt.Fprintln(opts.err, r.err)
			failed = true
			continue
		}
		if r.diags.HasErrors() {
			r.diags.WriteText(opts.err)
			failed = true
			continue
		}
		src := r.file.Source.Text
		out := bddl.Format(r.file)
		switch {
		case opts.diff:
			if !bytes.Equal(src, out) {
				fmt.Fprint(opts.out, udiff.Unified(r.path, r.path+" (formatted)", string(src), string(out)))
			}
		case opts.write:
			if !bytes.Equal(src, out) {
				if err := writeFileAtomic(r.path, out); err != nil {
					fmt.Fprintln(opts.err, err)
					failed = true
				}
			}
		default:
			opts.out.Write(out)
		}
	}
	if failed {
		return findings()
	}
	return nil
}

// writeFileAtomic replaces path with data so that a reader, or a crash,
// sees either the old file or the new one, never a mix. The file keeps its
// permissions, and a symbolic link stays a link.
func writeFileAtomic(path string, data []byte) error {
	// Replace the file a symbolic link points to, not the link itself.
	path, err := filepath.EvalSymlinks(path)
	if err != nil {
		return err
	}
	info, err := os.Stat(path)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // no-op once renamed
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(info.Mode().Perm()); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
