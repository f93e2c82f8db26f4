package bddl

import "strings"

// FormatLibero returns the canonical text of a LIBERO problem: the layout
// of LIBERO's own files (bddl_generation_utils), with 4-space indentation
// as the BEHAVIOR-1K printer uses, sections in source order, numbers as
// written, comments kept. Sections LIBERO ignores are printed as written.
func FormatLibero(p *Problem) []byte {
	l := p.Libero
	comments := p.Comments
	if len(l.Unknown) > 0 {
		// A section printed verbatim carries its own comments.
		comments = nil
		for _, c := range p.Comments {
			inside := false
			for _, u := range l.Unknown {
				if c.Range.Start.Offset >= u.Range.Start.Offset && c.Range.Start.Offset < u.Range.End.Offset {
					inside = true
				}
			}
			if !inside {
				comments = append(comments, c)
			}
		}
	}
	pr := newPrinter(comments, p.Source)
	pr.line(0, p.Range.Start.Offset, "(define (problem "+p.Name.Name+")")
	unknown := 0
	for i, s := range p.Sections {
		if i > 0 {
			pr.blank()
		}
		end := s.Range.End.Offset - 1
		switch s.Keyword.Key() {
		case ":domain":
			pr.line(1, s.Range.Start.Offset, "("+s.Keyword.Name+" "+p.Domain.Name+")")
		case ":language":
			text := "(" + s.Keyword.Name
			if l.Language != "" {
				text += " " + l.Language
			}
			pr.line(1, s.Range.Start.Offset, text+")")
		case ":regions":
			pr.line(1, s.Range.Start.Offset, "("+s.Keyword.Name)
			for _, r := range l.Regions {
				printRegion(pr, r)
			}
			pr.line(1, end, ")")
		case ":fixtures", ":objects":
			decls := p.Objects
			if s.Keyword.Key() == ":fixtures" {
				decls = l.Fixtures
			}
			pr.line(1, s.Range.Start.Offset, "("+s.Keyword.Name)
			for _, d := range decls {
				var b strings.Builder
				for _, inst := range d.Instances {
					b.WriteString(inst.Name + " ")
				}
				b.WriteString("- " + d.Type.Name)
				pr.line(2, d.Range.Start.Offset, b.String())
			}
			pr.line(1, end, ")")
		case ":obj_of_interest":
			pr.line(1, s.Range.Start.Offset, "("+s.Keyword.Name)
			for _, o := range l.ObjOfInterest {
				pr.line(2, o.Range.Start.Offset, o.Name)
			}
			pr.line(1, end, ")")
		case ":init":
			pr.line(1, s.Range.Start.Offset, "("+s.Keyword.Name)
			for _, f := range p.Init {
				pr.line(2, f.Info().Range.Start.Offset, inline(f))
			}
			pr.line(1, end, ")")
		case ":goal":
			pr.line(1, s.Range.Start.Offset, "("+s.Keyword.Name)
			switch g := p.Goal.(type) {
			case *And:
				pr.line(2, g.Range.Start.Offset, "(And")
				for _, x := range g.Xs {
					pr.line(3, x.Info().Range.Start.Offset, inline(x))
				}
				pr.line(2, g.Range.End.Offset-1, ")")
			case *Atom:
				pr.line(2, g.Range.Start.Offset, inline(g))
			}
			pr.line(1, end, ")")
		default:
			if unknown < len(l.Unknown) {
				pr.line(1, s.Range.Start.Offset, l.Unknown[unknown].Text)
				unknown++
			}
		}
	}
	pr.line(0, p.Range.End.Offset-1, ")")
	pr.flushAll()
	return pr.buf.Bytes()
}

func printRegion(pr *printer, r *Region) {
	pr.line(2, r.Range.Start.Offset, "("+r.Name.Name)
	for _, kw := range r.Attrs {
		switch kw.Key() {
		case ":target":
			if r.Target.Name != "" {
				pr.line(3, kw.Range.Start.Offset, "("+kw.Name+" "+r.Target.Name+")")
			}
		case ":ranges":
			pr.line(3, kw.Range.Start.Offset, "("+kw.Name+" (")
			for _, q := range r.Ranges {
				pr.line(4, q.Range.Start.Offset, numberList(q.V[:]))
			}
			pr.line(3, r.RangesRange.End.Offset-1, "))")
		case ":yaw_rotation":
			pr.line(3, kw.Range.Start.Offset, "("+kw.Name+" (")
			for _, q := range r.Yaw {
				pr.line(4, q.Range.Start.Offset, numberList(q.V[:]))
			}
			pr.line(3, r.YawRange.End.Offset-1, "))")
		case ":rgba":
			if len(r.RGBA) == 4 {
				pr.line(3, kw.Range.Start.Offset, "("+kw.Name+" "+numberList(r.RGBA)+")")
			}
		}
	}
	pr.line(2, r.Range.End.Offset-1, ")")
}

func numberList(ns []Number) string {
	var b strings.Builder
	b.WriteByte('(')
	for i, n := range ns {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(n.Text)
	}
	b.WriteByte(')')
	return b.String()
}
