package main

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// deprecatedAnnotation marks a hidden flag kept for one release as an
// older spelling; its value is what to use instead.
const deprecatedAnnotation = "bddl/deprecated"

// addOutputFlag registers -o/--output, the one spelling of every written
// file or directory, bound to p. Each of deprecated (an older spelling
// such as "out") is kept for one release as a hidden alias bound to the
// same variable, whose use prints a deprecation note.
func addOutputFlag(f *pflag.FlagSet, p *string, value, usage string, deprecated ...string) {
	f.StringVarP(p, "output", "o", value, usage)
	for _, old := range deprecated {
		f.StringVar(p, old, value, usage)
		deprecateFlag(f, old, "-o/--output")
	}
}

// deprecateFlag hides the flag name and has its use print a note naming
// instead. pflag's own MarkDeprecated prints through cobra onto the
// command's output stream, stdout here, where it would mix with data;
// deprecationNotes prints on stderr instead.
func deprecateFlag(f *pflag.FlagSet, name, instead string) {
	_ = f.MarkHidden(name)
	_ = f.SetAnnotation(name, deprecatedAnnotation, []string{instead})
}

// deprecationNotes prints one note on w for each deprecated spelling
// given on the command line of cmd.
func deprecationNotes(cmd *cobra.Command, w io.Writer) {
	cmd.Flags().Visit(func(f *pflag.Flag) {
		if alt := f.Annotations[deprecatedAnnotation]; len(alt) > 0 {
			fmt.Fprintf(w, "bddl: note: --%s is deprecated and will be removed in the next release: use %s\n", f.Name, alt[0])
		}
	})
}
