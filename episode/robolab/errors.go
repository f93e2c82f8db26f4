package robolab

import (
	"strconv"
	"strings"

	"github.com/openbddl/bddl/internal/termsafe"
)

// Error is a problem with a run file, located as precisely as the input
// allows: the file, the dataset or group path inside it, and the step. It
// renders as
//
//	run_0.hdf5: data/demo_1/bbox/bbox_mm/bowl: step 9: corner 5 z is NaN
type Error struct {
	File    string
	Path    string // dataset or group path in the file; "" for the file as a whole
	Step    int
	HasStep bool
	Msg     string
	// Truncated marks an error caused by the file ending early.
	Truncated bool
}

func (e *Error) Error() string {
	var b strings.Builder
	for _, s := range []string{e.File, e.Path} {
		if s != "" {
			b.WriteString(s)
			b.WriteString(": ")
		}
	}
	if e.HasStep {
		b.WriteString("step ")
		b.WriteString(strconv.Itoa(e.Step))
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	return termsafe.Text(b.String()) // names from the file are data
}
