package initcheck

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/openbddl/bddl/internal/termsafe"
)

// Result is one state's verdict: the "init" record of check --init
// --format json and -o (bddl schema init), for BEHAVIOR-1K states and
// LIBERO episodes alike.
type Result struct {
	Record   string `json:"record"` // "init"
	Episode  string `json:"episode"`
	Activity string `json:"activity"`
	Init     string `json:"init"` // true, false or unknown
	Literals int    `json:"literals"`
	// False and Unknown count the literals of each value (the rest are
	// true); NotTrue is their sum, Approximate those of them decided on
	// an approximated record.
	False       int       `json:"false"`
	Unknown     int       `json:"unknown"`
	NotTrue     int       `json:"not_true"`
	Approximate int       `json:"approximate"`
	Failing     []Failure `json:"failing,omitempty"`
	Error       string    `json:"error,omitempty"`
	// Results files (-o) only, as in check's: the shard, its number of
	// states, the state's absolute path (what resuming matches on) and
	// its path relative to its argument.
	Shard       string `json:"shard,omitempty"`
	ShardInputs int    `json:"shard_inputs,omitempty"`
	Key         string `json:"key,omitempty"`
	Rel         string `json:"rel,omitempty"`
}

// Failure is a literal of :init that is not true.
type Failure struct {
	Literal     string `json:"literal"`
	Value       string `json:"value"`
	Detail      string `json:"detail,omitempty"`
	Approximate bool   `json:"approximate,omitempty"`
}

// WriteResult writes one state's verdict: a JSON line (format "json")
// or a line for people naming the literals that are not true.
func WriteResult(w io.Writer, format string, r *Result) error {
	if format == "json" {
		b, err := json.Marshal(r)
		if err != nil {
			return err
		}
		_, err = fmt.Fprintln(w, string(b))
		return err
	}
	switch {
	case r.Error != "":
		_, err := fmt.Fprintf(w, "ERROR  %s: %s\n", r.Episode, r.Error)
		return err
	case r.Init == "true":
		_, err := fmt.Fprintf(w, "TRUE   %s: %d literals\n", r.Episode, r.Literals)
		return err
	}
	var parts []string
	for _, f := range r.Failing {
		s := f.Literal + " is " + f.Value
		if f.Approximate {
			s += " (approximate)"
		}
		if f.Detail != "" {
			s += " [" + f.Detail + "]"
		}
		parts = append(parts, s)
	}
	_, err := fmt.Fprintf(w, "%-6s %s: %d of %d literals not true: %s\n", strings.ToUpper(r.Init), r.Episode, len(r.Failing), r.Literals, strings.Join(parts, "; "))
	return err
}

// WriteSummary prints one row per activity (and one for all, when
// there are several): states, :init true, false and unknown, the rate
// true, the literals false and unknown and how many of those were
// approximate; previous says how many states came from an earlier run
// (-o).
func WriteSummary(w io.Writer, results []Result, previous int) {
	type row struct{ states, initTrue, initFalse, initUnknown, errors, litFalse, litUnknown, approx int }
	rows := map[string]*row{}
	var names []string
	var total row
	for _, r := range results {
		x := rows[r.Activity]
		if x == nil {
			x = &row{}
			rows[r.Activity] = x
			names = append(names, r.Activity)
		}
		for _, x := range []*row{x, &total} {
			x.states++
			switch {
			case r.Error != "":
				x.errors++
			case r.Init == "true":
				x.initTrue++
			case r.Init == "false":
				x.initFalse++
			default:
				x.initUnknown++
			}
			x.litFalse += r.False
			x.litUnknown += r.Unknown
			x.approx += r.Approximate
		}
	}
	sort.Strings(names)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ACTIVITY\tSTATES\tINIT TRUE\tFALSE\tUNKNOWN\tRATE\tLITERALS FALSE\tUNKNOWN\tAPPROXIMATE\tERRORS")
	line := func(n string, x *row) {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%.1f%%\t%d\t%d\t%d\t%d\n", termsafe.Text(n), x.states, x.initTrue, x.initFalse, x.initUnknown,
			100*float64(x.initTrue)/float64(max(1, x.states)), x.litFalse, x.litUnknown, x.approx, x.errors)
	}
	for _, n := range names {
		line(n, rows[n])
	}
	if len(names) > 1 {
		line("all", &total)
	}
	tw.Flush()
	if previous > 0 {
		fmt.Fprintf(w, "(%d of the %d states from earlier runs)\n", previous, total.states)
	}
}
