package bddl

import (
	"fmt"
	"strconv"
	"strings"
)

// DebugString renders a problem compactly for golden tests: every node's id
// and every term's kind, but no positions, so two parses of the same
// definition in different layouts give the same text.
func (p *Problem) DebugString() string {
	var b strings.Builder
	fmt.Fprintf(&b, "problem %s domain=%s nodes=%d\n", p.Name.Name, p.Domain.Name, p.NumNodes)
	b.WriteString("objects:\n")
	for _, d := range p.Objects {
		b.WriteString("  ")
		for _, inst := range d.Instances {
			b.WriteString(inst.Name + " ")
		}
		b.WriteString("- " + d.Type.Name + "\n")
	}
	b.WriteString("init:\n")
	for _, f := range p.Init {
		b.WriteString("  ")
		debugFormula(&b, f)
		b.WriteString("\n")
	}
	b.WriteString("goal:\n  ")
	debugFormula(&b, p.Goal)
	b.WriteString("\n")
	return b.String()
}

// DebugString renders one formula compactly, with node ids and term kinds.
func DebugString(f Formula) string {
	var b strings.Builder
	debugFormula(&b, f)
	return b.String()
}

var termKindTag = [...]string{InstanceTerm: "i:", VariableTerm: "v:", ConstantTerm: "c:"}

func debugFormula(b *strings.Builder, f Formula) {
	if f == nil {
		b.WriteString("<nil>")
		return
	}
	b.WriteString("#" + strconv.Itoa(f.Info().ID) + "(")
	switch n := f.(type) {
	case *Atom:
		b.WriteString(n.Pred.Name)
		for _, t := range n.Args {
			b.WriteString(" " + termKindTag[t.Kind] + t.Text())
		}
	case *Quant:
		b.WriteString(n.Kind.String())
		if n.Kind.Counted() {
			b.WriteString(" " + strconv.Itoa(n.N))
		}
		for _, v := range n.Vars {
			b.WriteString(" " + varDecl(v))
		}
		b.WriteString(" ")
		debugFormula(b, n.Body)
	default:
		b.WriteString(connective(f))
		for _, x := range Operands(f) {
			b.WriteString(" ")
			debugFormula(b, x)
		}
	}
	b.WriteString(")")
}
