package episode

import (
	"strconv"
	"strings"

	"github.com/openbddl/bddl/internal/termsafe"
)

// Error is a problem with a recording, located as precisely as the input
// allows: the file, the 1-based line, the step number when the line had
// one, and the path of the offending field in the line's JSON
// ("objects.apple.n.01_1.aabb", "facts[2]"). It renders as
//
//	ep.jsonl:17: step 16: objects.apple.n.01_1.aabb: min x 0.5 > max x 0.2
type Error struct {
	File    string
	Line    int
	Step    int64
	HasStep bool // Step is meaningful
	Field   string
	Msg     string
}

func (e *Error) Error() string {
	var b strings.Builder
	if e.File != "" {
		b.WriteString(e.File)
		b.WriteByte(':')
	}
	if e.Line > 0 {
		b.WriteString(strconv.Itoa(e.Line))
		b.WriteByte(':')
	}
	if b.Len() > 0 {
		b.WriteByte(' ')
	}
	if e.HasStep {
		b.WriteString("step ")
		b.WriteString(strconv.FormatInt(e.Step, 10))
		b.WriteString(": ")
	}
	if e.Field != "" {
		b.WriteString(e.Field)
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	// Names and values quoted from the recording are data: escaped for
	// a terminal (termsafe.Text).
	return termsafe.Text(b.String())
}
