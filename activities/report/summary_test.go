package report

import (
	"regexp"
	"strings"
	"testing"
)

// TestSummaryAlignedWhenColoured: the validate summary's columns line up
// whether or not severities are coloured.
func TestSummaryAlignedWhenColoured(t *testing.T) {
	t.Parallel()
	mk := func() *tally {
		tl := newTally()
		tl.add("a.bddl", "unknown-synset", "language", "error")
		tl.add("a.bddl", "unplaced", "placement", "warning")
		tl.add("b.bddl", "problem-name", "name", "info")
		return tl
	}
	strip := regexp.MustCompile("\x1b\\[[0-9;]*m")
	var plain, coloured strings.Builder
	writeSummary(&plain, mk(), Colours{})
	writeSummary(&coloured, mk(), Colours{Error: red, Warning: yellow})
	if !strings.Contains(coloured.String(), "\x1b[") {
		t.Fatal("no colour in the coloured summary")
	}
	if got := strip.ReplaceAllString(coloured.String(), ""); got != plain.String() {
		t.Errorf("coloured summary, escapes removed:\n%s\nplain:\n%s", got, plain.String())
	}
}

func red(s string) string    { return "\x1b[31m" + s + "\x1b[0m" }
func yellow(s string) string { return "\x1b[33m" + s + "\x1b[0m" }
