package bddl

import (
	"fmt"
	"slices"
	"strings"
	"sync"
)

// File is a parsed BDDL file: a problem or a domain.
type File struct {
	Source  *Source
	Problem *Problem // set for (define (problem ...) ...)
	Domain  *Domain  // set for (define (domain ...) ...)
}

// ParseFile parses a problem or domain file. It returns as much of the tree
// as it could build, with every syntax problem found; the tree is complete
// when the diagnostics hold no error. No input makes it panic or hang.
//
// The tree's names share memory with src, which must not be modified
// afterwards.
func ParseFile(filename string, src []byte) (*File, Diagnostics) {
	source := NewSource(filename, src)
	file := &File{Source: source}
	st := getParseState(filename, src)
	defer putParseState(st)
	sc, p, b := &st.sc, &st.p, &st.b
	if p.peekType() == tokEOF {
		return file, finish(source, Diagnostics{{
			Severity: Error, Code: codeEmptyFile, Summary: "the file has no definition",
			Detail:  "a BDDL file holds (define (problem NAME) ...) or (define (domain NAME) ...)",
			Subject: Range{Start: Pos{Line: 1, Col: 1}, End: Pos{Line: 1, Col: 1}},
		}})
	}
	h, d := p.header()
	if d != nil {
		return file, finish(source, placeParenErrors(src, Diagnostics{d}))
	}
	p.body(b)
	var diags Diagnostics
	lowerFile(file, h, b, *sc.comments, &diags)
	return file, finish(source, placeParenErrors(src, diags))
}

// parseState is the parser's scratch memory, reused from file to file so
// that a parse allocates little beyond the tree it returns.
type parseState struct {
	sc       scanner
	p        sectionParser
	b        gBody
	sections [6]gSection
}

var parseStates = sync.Pool{New: func() any { return new(parseState) }}

func getParseState(filename string, src []byte) *parseState {
	st := parseStates.Get().(*parseState)
	st.sc = *newScanner(filename, src)
	st.sc.header = false
	st.b = gBody{sections: st.b.sections[:0], spare: st.sections[:0]}
	st.b.arena.size(src)
	st.p = sectionParser{sc: &st.sc, arena: &st.b.arena, scope: st.p.scope[:0], stack: st.p.stack[:0], decls: st.p.decls[:0]}
	return st
}

// putParseState drops every reference into the finished tree, so the pool
// keeps no tree alive, and returns the state to the pool.
func putParseState(st *parseState) {
	clear(st.sections[:])
	clear(st.b.sections)
	st.b = gBody{sections: st.b.sections[:0]}
	st.sc = scanner{}
	st.p = sectionParser{scope: st.p.scope[:0], stack: st.p.stack[:0], decls: st.p.decls[:0]}
	parseStates.Put(st)
}

// ParseProblem parses a problem file.
func ParseProblem(filename string, src []byte) (*Problem, Diagnostics) {
	f, diags := ParseFile(filename, src)
	if f.Domain != nil {
		diags = append(diags, &Diagnostic{Severity: Error, Code: codeUnexpectedToken, Source: f.Source,
			Summary: "expected a problem file, found domain " + f.Domain.Name.Name, Subject: f.Domain.Name.Range})
	}
	return f.Problem, diags
}

// ParseDomain parses a domain file.
func ParseDomain(filename string, src []byte) (*Domain, Diagnostics) {
	f, diags := ParseFile(filename, src)
	if f.Problem != nil {
		diags = append(diags, &Diagnostic{Severity: Error, Code: codeUnexpectedToken, Source: f.Source,
			Summary: "expected a domain file, found problem " + f.Problem.Name.Name, Subject: f.Problem.Name.Range})
	}
	return f.Domain, diags
}

// finish attaches the source, orders the diagnostics, keeps one error per
// line (later ones on a line are nearly always consequences) and caps them.
func finish(src *Source, diags Diagnostics) Diagnostics {
	for _, d := range diags {
		if d.Source == nil {
			d.Source = src
		}
	}
	diags.Sort()
	out := diags[:0]
	for i, d := range diags {
		if i > 0 && d.Severity == Error && diags[i-1].Severity == Error && d.Subject.Start.Line == diags[i-1].Subject.Start.Line &&
			d.Source == diags[i-1].Source {
			continue
		}
		out = append(out, d)
	}
	if len(out) > maxErrors {
		last := out[maxErrors-1]
		out = append(out[:maxErrors:maxErrors], &Diagnostic{Severity: Error, Code: codeTooManyErrors, Source: src,
			Summary: fmt.Sprintf("too many errors; stopped reporting after %d", maxErrors),
			Detail:  "fix these first; later errors are often consequences of earlier ones", Subject: last.Subject})
	}
	return out
}

func lowerFile(file *File, h header, body *gBody, comments []Comment, diags *Diagnostics) {
	defineOpen := h.open.rng()
	rng := Range{Start: h.open.pos(), End: h.end}
	closed := false
	if body != nil {
		rng.End, closed = body.end, body.closed
	}
	name := Ident{Name: h.name.val, Range: h.name.rng()}
	var sections []*gSection
	if body != nil {
		sections = body.sections
	}
	unclosed := false
	for _, s := range sections {
		comments = append(comments, s.comments...)
		*diags = append(*diags, s.diags...)
		for _, d := range s.diags {
			unclosed = unclosed || d.Code == codeUnclosedParen
		}
	}
	slices.SortFunc(comments, func(a, b Comment) int { return int(a.Range.Start.Offset - b.Range.Start.Offset) })
	if !closed && !unclosed {
		*diags = append(*diags, &Diagnostic{Severity: Error, Code: codeUnclosedParen, Subject: defineOpen, byCount: true,
			Summary: "(define is not closed before the end of the file",
			Detail:  "add the missing ')'; every '(' needs a matching ')'"})
	}
	errorf := func(r Range, code, summary, detail string) {
		*diags = append(*diags, &Diagnostic{Severity: Error, Code: code, Summary: summary, Detail: detail, Subject: r})
	}
	kept := make([]*gSection, 0, len(sections))
	seen := func(key string) *gSection {
		for _, k := range kept {
			if k.keyword.Key() == key {
				return k
			}
		}
		return nil
	}
	for _, s := range sections {
		if s.stray {
			continue
		}
		if first := seen(s.keyword.Key()); first != nil {
			errorf(s.keyword.Range, codeDuplicateSection, "duplicate section "+s.keyword.Name,
				fmt.Sprintf("merge it into the %s section at %s", s.keyword.Name, first.keyword.Range.Start))
			continue
		}
		kept = append(kept, s)
	}
	var allowed, required []string
	switch h.kind {
	case "problem":
		p := &Problem{Range: rng, Name: name, Comments: comments, Source: file.Source}
		allowed, required = problemSections, problemSections
		for _, s := range kept {
			sec := Section{Keyword: s.keyword, Range: s.rng}
			switch s.keyword.Key() {
			case ":domain":
				p.Sections = append(p.Sections, sec)
				if len(s.names) != 1 {
					errorf(s.rng, codeOperandCount, fmt.Sprintf("(:domain ...) names one domain, found %d", len(s.names)),
						"write (:domain omnigibson)")
				}
				if len(s.names) > 0 {
					p.Domain = s.names[0]
				}
			case ":objects":
				p.Sections = append(p.Sections, sec)
				p.Objects = s.objects
			case ":init":
				p.Sections = append(p.Sections, sec)
				p.Init = s.forms
			case ":goal":
				p.Sections = append(p.Sections, sec)
				switch {
				case len(s.forms) == 1:
					p.Goal = s.forms[0]
				case len(s.forms) > 1:
					errorf(s.rng, codeOperandCount, fmt.Sprintf("(:goal ...) holds one formula, found %d", len(s.forms)),
						"wrap the formulas in (and ...)")
					and := &And{Xs: s.forms}
					and.Range = s.rng
					p.Goal = and
				case !hasErrorIn(*diags, s.rng):
					errorf(s.rng, codeOperandCount, "(:goal) is empty", "write the goal formula, e.g. (:goal (and ...))")
				}
			}
		}
		p.numberNodes()
		file.Problem = p
	case "domain":
		d := &Domain{Range: rng, Name: name, Comments: comments, Source: file.Source}
		allowed, required = domainSections, domainSections[1:]
		for _, s := range kept {
			switch s.keyword.Key() {
			case ":requirements":
				d.Requirements = s.names
			case ":predicates":
				d.Predicates = s.preds
			default:
				continue
			}
			d.Sections = append(d.Sections, Section{Keyword: s.keyword, Range: s.rng})
		}
		file.Domain = d
	}
	for _, s := range kept {
		if !slices.Contains(allowed, s.keyword.Key()) && knownSection(s.keyword.Key()) {
			errorf(s.keyword.Range, codeMisplacedSection, fmt.Sprintf("section %s does not belong in a %s file", s.keyword.Name, h.kind),
				fmt.Sprintf("a %s file has the sections %v", h.kind, allowed))
		}
	}
	// One diagnostic names every missing section: they all point at the
	// name, and only one error per line is kept.
	var missing []string
	for _, key := range required {
		if seen(key) == nil {
			missing = append(missing, key)
		}
	}
	if len(missing) > 0 {
		list := strings.Join(missing, ", ")
		if n := len(missing); n > 1 {
			list = strings.Join(missing[:n-1], ", ") + " and " + missing[n-1]
		}
		noun := "section"
		if len(missing) > 1 {
			noun = "sections"
		}
		errorf(name.Range, codeMissingSection, fmt.Sprintf("%s %s has no %s %s", h.kind, name.Name, list, noun),
			fmt.Sprintf("add (%s ...)", strings.Join(missing, " ...) (")))
	}
}

var (
	problemSections = []string{":domain", ":objects", ":init", ":goal"}
	domainSections  = []string{":requirements", ":predicates"}
)

func knownSection(key string) bool {
	switch key {
	case ":domain", ":objects", ":init", ":goal", ":requirements", ":predicates":
		return true
	}
	return false
}

func hasErrorIn(diags Diagnostics, r Range) bool {
	for _, d := range diags {
		if d.Severity == Error && d.Subject.Start.Offset >= r.Start.Offset && d.Subject.Start.Offset < r.End.Offset {
			return true
		}
	}
	return false
}
