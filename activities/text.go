package activities

import (
	"fmt"
	"strings"

	"github.com/openbddl/bddl/bddl"
)

// atomText renders an atom as written, e.g. (ontop apple.n.01_1 table.n.02_1).
func atomText(a *bddl.Atom) string {
	var b strings.Builder
	b.WriteByte('(')
	b.WriteString(a.Pred.Name)
	for _, t := range a.Args {
		b.WriteByte(' ')
		b.WriteString(t.Text())
	}
	b.WriteByte(')')
	return b.String()
}

// literalText renders an :init literal as written.
func literalText(l *Literal) string {
	if l.Negated {
		return "(not " + atomText(l.Atom) + ")"
	}
	return atomText(l.Atom)
}

// at renders where a node starts, for "first written at 12:9".
func at(r bddl.Range) string { return fmt.Sprintf("%d:%d", r.Start.Line, r.Start.Col) }

// list joins names as "a, b and c", keeping at most max and counting the
// rest.
func list(names []string, max int) string {
	if len(names) > max {
		rest := len(names) - max
		names = append(names[:max:max], fmt.Sprintf("%d more", rest))
	}
	switch len(names) {
	case 0:
		return ""
	case 1:
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
