package bddl

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
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
	sc := newScanner(filename, src)
	lex, err := lexer.Upgrade(sc)
	if err != nil { // the scanner never fails; keep the guard for safety
		return file, Diagnostics{{Severity: Error, Code: codeUnexpectedToken, Summary: err.Error(), Source: source}}
	}
	if lex.Peek().EOF() {
		return file, finish(source, Diagnostics{{
			Severity: Error, Code: codeEmptyFile, Summary: "the file has no definition",
			Detail:  "a BDDL file holds (define (problem NAME) ...) or (define (domain NAME) ...)",
			Subject: Range{Start: Pos{Line: 1, Col: 1}, End: Pos{Line: 1, Col: 1}},
		}})
	}
	g, err := fileParser.ParseFromLexer(lex)
	var diags Diagnostics
	if err != nil {
		diags = append(diags, headerError(err, lex))
	}
	if g != nil && g.Name != nil {
		lowerFile(file, g, *sc.comments, &diags)
	}
	return file, finish(source, placeParenErrors(src, diags))
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

// headerError turns participle's error, raised only for the file's header,
// into a diagnostic that says what a definition looks like. Participle's own
// message names the grammar's Go types, so it is not shown.
func headerError(err error, lex *lexer.PeekingLexer) *Diagnostic {
	d := &Diagnostic{Severity: Error, Code: codeUnexpectedToken,
		Summary: "malformed definition header",
		Detail:  "a definition starts with (define (problem NAME) or (define (domain NAME)"}
	var perr participle.Error
	if !errors.As(err, &perr) {
		return d
	}
	pos := perr.Position()
	d.Subject = Range{Start: posOf(pos), End: posOf(pos)}
	t := lex.Peek()
	if t.Pos.Offset != pos.Offset {
		return d
	}
	d.Subject = tokRange(t)
	switch tok := fromLexer(t); {
	case t.Type == tokInvalid && !utf8.ValidString(t.Value):
		d.Code, d.Summary = codeInvalidUTF8, "invalid UTF-8 bytes"
		d.Detail = "BDDL files are UTF-8 text; remove or re-encode these bytes"
	case t.Type == tokInvalid:
		d.Code, d.Summary = codeInvalidChar, fmt.Sprintf("unexpected character %q", t.Value)
	case t.Type == tokBody:
		d.Subject = Range{Start: d.Subject.Start, End: d.Subject.Start}
		d.Summary = "unexpected text after the definition's header"
	default:
		d.Summary = "unexpected " + describe(tok) + " in the definition's header"
	}
	return d
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

func lowerFile(file *File, g *gFile, comments []Comment, diags *Diagnostics) {
	open := posOf(g.Pos)
	defineOpen := Range{Start: open, End: Pos{Offset: open.Offset + 1, Line: open.Line, Col: open.Col + 1}}
	rng := Range{Start: posOf(g.Pos), End: posOf(g.EndPos)}
	closed := false
	if g.Body != nil {
		rng.End, closed = g.Body.end, g.Body.closed
	}
	nameTok := lexer.Token{Value: g.Name.Value, Pos: g.Name.Pos}
	name := Ident{Name: g.Name.Value, Range: tokRange(&nameTok)}
	var sections []*gSection
	if g.Body != nil {
		sections = g.Body.sections
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
	switch Fold(g.Kind) {
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
			errorf(s.keyword.Range, codeMisplacedSection, fmt.Sprintf("section %s does not belong in a %s file", s.keyword.Name, Fold(g.Kind)),
				fmt.Sprintf("a %s file has the sections %v", Fold(g.Kind), allowed))
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
		errorf(name.Range, codeMissingSection, fmt.Sprintf("%s %s has no %s %s", Fold(g.Kind), name.Name, list, noun),
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
