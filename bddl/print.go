package bddl

import (
	"bytes"
	"strconv"
	"strings"
)

// The canonical layout is the corpus's own: 4-space indentation, one
// object type line and one :init literal per line, goal connectives and
// quantifiers spread over lines with atoms on one line. Comments are kept:
// a comment that shares its source line with the element before it stays
// at the end of that element's line (it describes it); any other is printed
// on its own line before the element that follows it.

// Format returns the canonical text of a parsed file.
func Format(f *File) []byte {
	switch {
	case f.Problem != nil && f.Problem.Libero != nil:
		return FormatLibero(f.Problem)
	case f.Problem != nil:
		return FormatProblem(f.Problem)
	case f.Domain != nil:
		return FormatDomain(f.Domain)
	}
	return nil
}

// FormatProblem returns the canonical text of a problem.
func FormatProblem(p *Problem) []byte {
	pr := newPrinter(p.Comments, p.Source)
	pr.line(0, p.Range.Start.Offset, "(define (problem "+p.Name.Name+")")
	for i, s := range p.Sections {
		if i > 0 {
			pr.blank()
		}
		switch s.Keyword.Key() {
		case ":domain":
			pr.line(1, s.Range.Start.Offset, "("+s.Keyword.Name+" "+p.Domain.Name+")")
		case ":objects":
			pr.line(1, s.Range.Start.Offset, "("+s.Keyword.Name)
			for _, d := range p.Objects {
				var b strings.Builder
				for _, inst := range d.Instances {
					b.WriteString(inst.Name)
					b.WriteByte(' ')
				}
				b.WriteString("- ")
				b.WriteString(d.Type.Name)
				pr.line(2, d.Range.Start.Offset, b.String())
			}
			pr.line(1, s.Range.End.Offset-1, ")")
		case ":init":
			pr.line(1, s.Range.Start.Offset, "("+s.Keyword.Name)
			for _, f := range p.Init {
				pr.line(2, f.Info().Range.Start.Offset, inline(f))
			}
			pr.line(1, s.Range.End.Offset-1, ")")
		case ":goal":
			pr.line(1, s.Range.Start.Offset, "("+s.Keyword.Name)
			if p.Goal != nil {
				pr.formula(2, p.Goal)
			}
			pr.line(1, s.Range.End.Offset-1, ")")
		}
	}
	pr.line(0, p.Range.End.Offset-1, ")")
	pr.flushAll()
	return pr.buf.Bytes()
}

// FormatDomain returns the canonical text of a domain.
func FormatDomain(d *Domain) []byte {
	pr := newPrinter(d.Comments, d.Source)
	pr.line(0, d.Range.Start.Offset, "(define (domain "+d.Name.Name+")")
	for _, s := range d.Sections {
		switch s.Keyword.Key() {
		case ":requirements":
			var b strings.Builder
			b.WriteString("(" + s.Keyword.Name)
			for _, r := range d.Requirements {
				b.WriteString(" " + r.Name)
			}
			b.WriteString(")")
			pr.line(1, s.Range.Start.Offset, b.String())
		case ":predicates":
			pr.line(1, s.Range.Start.Offset, "("+s.Keyword.Name)
			for _, p := range d.Predicates {
				var b strings.Builder
				b.WriteString("(" + p.Name.Name)
				for _, a := range p.Params {
					b.WriteString(" ?" + a.Name)
				}
				b.WriteString(")")
				pr.line(2, p.Range.Start.Offset, b.String())
			}
			pr.line(1, s.Range.End.Offset-1, ")")
		}
	}
	pr.line(0, d.Range.End.Offset-1, ")")
	pr.flushAll()
	return pr.buf.Bytes()
}

type printer struct {
	buf      bytes.Buffer
	comments []Comment
	next     int    // index of the first comment not yet printed
	src      []byte // the source, to tell trailing comments; nil: none are
	prev     int32  // source offset of the element printed last; -1: none
}

func newPrinter(comments []Comment, src *Source) *printer {
	p := &printer{comments: comments, prev: -1}
	if src != nil {
		p.src = src.Text
	}
	return p
}

// line prints text on its own line at the given depth, after the comments
// that come before offset in the source.
func (p *printer) line(depth int, offset int32, text string) {
	p.comment(depth, offset)
	p.write(depth, text)
	p.prev = offset
}

// comment prints the comments that come before offset: at the end of the
// last line printed when one shares that element's source line, else on
// lines of their own.
func (p *printer) comment(depth int, offset int32) {
	for p.next < len(p.comments) && p.comments[p.next].Range.Start.Offset < offset {
		c := p.comments[p.next]
		if p.trailing(c) {
			// Before the newline ending that line, and a blank line
			// printed after it.
			b := p.buf.Bytes()
			n := len(b) - len(bytes.TrimRight(b, "\n"))
			p.buf.Truncate(len(b) - n)
			p.buf.WriteString(" " + c.Text + strings.Repeat("\n", n))
		} else {
			p.write(depth, c.Text)
		}
		p.next++
	}
}

// trailing reports whether c follows the element printed last on the same
// source line.
func (p *printer) trailing(c Comment) bool {
	start, end := p.prev, c.Range.Start.Offset
	return p.src != nil && start >= 0 && start < end && int(end) <= len(p.src) &&
		p.buf.Len() > 0 && bytes.IndexByte(p.src[start:end], '\n') < 0
}

func (p *printer) write(depth int, text string) {
	for range depth {
		p.buf.WriteString("    ")
	}
	p.buf.WriteString(text)
	p.buf.WriteByte('\n')
}

func (p *printer) blank() { p.buf.WriteByte('\n') }

func (p *printer) flushAll() {
	p.comment(0, 1<<31-1)
}

// formula prints a goal formula: atoms on one line, everything else with
// its operands on their own lines.
func (p *printer) formula(depth int, f Formula) {
	start, end := f.Info().Range.Start.Offset, f.Info().Range.End.Offset-1
	switch n := f.(type) {
	case *Atom:
		p.line(depth, start, inline(n))
		return
	case *Not:
		p.line(depth, start, "(not")
		p.formula(depth+1, n.X)
	case *And:
		p.line(depth, start, "(and")
		for _, x := range n.Xs {
			p.formula(depth+1, x)
		}
	case *Or:
		p.line(depth, start, "(or")
		for _, x := range n.Xs {
			p.formula(depth+1, x)
		}
	case *Imply:
		p.line(depth, start, "(imply")
		p.formula(depth+1, n.If)
		p.formula(depth+1, n.Then)
	case *Quant:
		p.line(depth, start, "("+n.Kind.String())
		if n.Kind.Counted() {
			p.line(depth+1, n.NRange.Start.Offset, "("+strconv.Itoa(n.N)+")")
		}
		for _, v := range n.Vars {
			p.line(depth+1, v.Range.Start.Offset, varDecl(v))
		}
		p.formula(depth+1, n.Body)
	}
	p.line(depth, end, ")")
}

func varDecl(v VarDecl) string { return "(?" + v.Var.Name + " - " + v.Type.Name + ")" }

// inline renders a formula on one line, as :init literals are written.
func inline(f Formula) string {
	var b strings.Builder
	writeInline(&b, f)
	return b.String()
}

func writeInline(b *strings.Builder, f Formula) {
	switch n := f.(type) {
	case *Atom:
		b.WriteString("(" + n.Pred.Name)
		for _, t := range n.Args {
			b.WriteString(" " + t.Text())
		}
		b.WriteString(")")
		return
	case *Not:
		b.WriteString("(not ")
		writeInline(b, n.X)
	case *And, *Or, *Imply:
		b.WriteString("(" + connective(f))
		for _, x := range Operands(f) {
			b.WriteString(" ")
			writeInline(b, x)
		}
	case *Quant:
		b.WriteString("(" + n.Kind.String() + " ")
		if n.Kind.Counted() {
			b.WriteString("(" + strconv.Itoa(n.N) + ") ")
		}
		for _, v := range n.Vars {
			b.WriteString(varDecl(v) + " ")
		}
		writeInline(b, n.Body)
	}
	b.WriteString(")")
}

// connective is the keyword of a connective node.
func connective(f Formula) string {
	switch f.(type) {
	case *And:
		return "and"
	case *Or:
		return "or"
	case *Imply:
		return "imply"
	case *Not:
		return "not"
	}
	return ""
}

// String renders a formula on one line in BDDL syntax.
func String(f Formula) string {
	if f == nil {
		return "<nil>"
	}
	return inline(f)
}
