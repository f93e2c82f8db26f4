// Package cliflag holds the flag conventions every bddl command shares,
// on cobra and pflag: the one spelling of an output (-o/--output) with
// older spellings kept hidden for a release, the notes their use prints,
// and the did-you-mean of an unknown flag.
//
// It is a ground utility (level 0): it imports nothing of the module but
// the other ground utilities.
package cliflag

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/openbddl/bddl/internal/suggest"
)

// DeprecatedAnnotation marks a hidden flag kept for one release as an
// older spelling; its value is what to use instead.
const DeprecatedAnnotation = "bddl/deprecated"

// AddOutput registers -o/--output, the one spelling of every written
// file or directory, bound to p. Each of deprecated (an older spelling
// such as "out") is kept for one release as a hidden alias bound to the
// same variable, whose use prints a deprecation note.
func AddOutput(f *pflag.FlagSet, p *string, value, usage string, deprecated ...string) {
	f.StringVarP(p, "output", "o", value, usage)
	for _, old := range deprecated {
		f.StringVar(p, old, value, usage)
		Deprecate(f, old, "-o/--output")
	}
}

// Deprecate hides the flag name and has its use print a note naming
// instead. pflag's own MarkDeprecated prints through cobra onto the
// command's output stream, stdout here, where it would mix with data;
// DeprecationNotes prints on stderr instead.
func Deprecate(f *pflag.FlagSet, name, instead string) {
	_ = f.MarkHidden(name)
	_ = f.SetAnnotation(name, DeprecatedAnnotation, []string{instead})
}

// DeprecationNotes prints one note on w for each deprecated spelling
// given on the command line of cmd.
func DeprecationNotes(cmd *cobra.Command, w io.Writer) {
	cmd.Flags().Visit(func(f *pflag.Flag) {
		if alt := f.Annotations[DeprecatedAnnotation]; len(alt) > 0 {
			fmt.Fprintf(w, "bddl: note: --%s is deprecated and will be removed in the next release: use %s\n", f.Name, alt[0])
		}
	})
}

// Unknown adds to pflag's "unknown flag: --formt" the closest of the
// command's flags (names, without dashes) and its inherited ones, as
// cobra does for commands.
func Unknown(c *cobra.Command, err error, names []string) error {
	name, ok := strings.CutPrefix(err.Error(), "unknown flag: --")
	if !ok {
		return err
	}
	var all []string
	for _, n := range names {
		all = append(all, "--"+n)
	}
	c.InheritedFlags().VisitAll(func(f *pflag.Flag) {
		if !f.Hidden {
			all = append(all, "--"+f.Name)
		}
	})
	if hint := suggest.DidYouMean("--"+name, all); hint != "" {
		return fmt.Errorf("%w%s", err, hint)
	}
	return fmt.Errorf("%w (see '%s --help')", err, c.CommandPath())
}

// InsertParagraph puts a paragraph of help text before the one starting
// with at (at the end when there is none): how a command's extension
// (check's readers of a format) documents itself in the command's help.
func InsertParagraph(text, at, para string) string {
	if i := strings.Index(text, "\n\n"+at); i >= 0 {
		return text[:i+2] + para + "\n\n" + text[i+2:]
	}
	return text + "\n\n" + para
}
