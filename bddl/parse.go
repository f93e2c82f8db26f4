package bddl

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"
)

// File is a parsed BDDL file: a problem or a domain.
type File struct {
	Source  *Source
	Problem *Problem // set for (define (problem ...) ...)
	Domain  *Domain  // set for (define (domain ...) ...)

	mem *fileMemory // what Release hands back
}

// ParseFile parses a problem or domain file. It returns as much of the tree
// as it could build, with every syntax problem found; the tree is complete
// when the diagnostics hold no error. No input makes it panic or hang.
//
// The tree's names share memory with src, which must not be modified
// afterwards.
func ParseFile(filename string, src []byte) (*File, Diagnostics) {
	return parseFile(filename, src, Options{})
}

// fileMemory holds what every parse returns, in one allocation, and the
// slabs of its tree.
type fileMemory struct {
	file     File
	source   Source
	problem  Problem
	sections [4]Section
	slabs    slabs
}

// fileMemories are the memory of released files, for parses to reuse.
var fileMemories sync.Pool

// Release hands the memory of f's tree back for later parses to reuse,
// sparing them fresh allocations. Nothing reached from f (its problem or
// domain, their nodes and names, its source, the diagnostics of its parse)
// may be used afterwards, nor may f be released again. A file not returned
// by a parse is left alone.
func (f *File) Release() {
	mem := f.mem
	if mem == nil {
		return
	}
	*mem = fileMemory{slabs: mem.slabs}
	fileMemories.Put(mem)
}

func parseFile(filename string, src []byte, opts Options) (*File, Diagnostics) {
	if opts.Dialect == DialectLibero || opts.Dialect == DialectAuto && IsLibero(src) {
		return parseLibero(filename, src, opts)
	}
	mem, _ := fileMemories.Get().(*fileMemory)
	if mem == nil {
		mem = new(fileMemory)
	}
	source := &mem.source
	source.Name, source.Text = filename, src
	file := &mem.file
	file.Source, file.mem = source, mem
	st := getParseState(filename, src, &mem.slabs)
	defer putParseState(st)
	sc, p, b := &st.sc, &st.p, &st.b
	p.mode = opts.Mode
	if p.peekType() == tokEOF {
		return file, opts.finish(source, Diagnostics{{
			Severity: Error, Code: codeEmptyFile, Summary: "the file has no definition",
			Detail:  "a BDDL file holds (define (problem NAME) ...) or (define (domain NAME) ...)",
			Subject: Range{Start: Pos{Line: 1, Col: 1}, End: Pos{Line: 1, Col: 1}},
		}})
	}
	h, d := p.header()
	if d != nil {
		return file, opts.finish(source, placeParenErrors(src, Diagnostics{d}))
	}
	p.body(b)
	var diags Diagnostics
	lowerFile(mem, h, b, *sc.comments, &diags, opts)
	return file, opts.finish(source, placeParenErrors(src, diags))
}

// parseState is the parser's scratch memory, reused from file to file so
// that a parse allocates little beyond the tree it returns.
type parseState struct {
	sc       scanner
	p        sectionParser
	b        gBody
	sections [6]gSection
	toks     []token // the parser's token window
	comments []Comment
}

var parseStates = sync.Pool{New: func() any { return new(parseState) }}

func getParseState(filename string, src []byte, reuse *slabs) *parseState {
	st := parseStates.Get().(*parseState)
	st.comments = nil // the last file's are its tree's
	st.sc.init(filename, src, &st.comments)
	st.sc.header = false
	st.b = gBody{sections: st.b.sections[:0], spare: st.sections[:0]}
	st.p = sectionParser{arena: &st.b.arena, scope: st.p.scope[:0], stack: st.p.stack[:0], decls: st.p.decls[:0]}
	st.p.start(&st.sc, st.toks)
	if st.p.atEOF {
		// The whole file is in the window: count what the tree needs.
		st.b.arena.sizeFromTokens(&st.p, reuse)
	} else {
		st.b.arena.size(src, reuse)
	}
	return st
}

// putParseState drops every reference into the finished tree, so the pool
// keeps no tree alive, and returns the state to the pool.
func putParseState(st *parseState) {
	clear(st.sections[:])
	clear(st.b.sections)
	st.b = gBody{sections: st.b.sections[:0]}
	st.sc = scanner{}
	st.comments = nil
	st.toks = st.p.toks[:0]
	st.p = sectionParser{scope: st.p.scope[:0], stack: st.p.stack[:0], decls: st.p.decls[:0]}
	parseStates.Put(st)
}

// ParseProblem parses a problem file.
func ParseProblem(filename string, src []byte) (*Problem, Diagnostics) {
	return Options{}.ParseProblem(filename, src)
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

// finish applies the options' reading policy, attaches the source, orders
// the diagnostics, keeps one error per line (later ones on a line are
// nearly always consequences) and caps them.
func (o Options) finish(src *Source, diags Diagnostics) Diagnostics {
	o.demote(diags)
	diags = finish(src, diags)
	o.escalate(diags)
	return diags
}

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

func lowerFile(mem *fileMemory, h header, body *gBody, comments []Comment, diags *Diagnostics, opts Options) {
	file := &mem.file
	defineOpen := h.open.rng()
	rng := Range{Start: h.open.pos(), End: h.end}
	closed := false
	if body != nil {
		rng.End, closed = body.end, body.closed
	}
	name := Ident{Name: h.nameText, Range: h.name.rng()}
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
	errorf := func(r Range, code, summary, detail string) *Diagnostic {
		d := &Diagnostic{Severity: Error, Code: code, Summary: summary, Detail: detail, Subject: r}
		*diags = append(*diags, d)
		return d
	}
	kept := make([]*gSection, 0, len(sections))
	var again []*gSection // second and later sections of a kind
	seen := func(key string) *gSection {
		for _, k := range kept {
			if k.key == key {
				return k
			}
		}
		return nil
	}
	for _, s := range sections {
		if s.stray {
			continue
		}
		if first := seen(s.key); first != nil {
			d := errorf(s.keyword.Range, codeDuplicateSection, "duplicate section "+s.keyword.Name,
				fmt.Sprintf("merge it into the %s section at %s", s.keyword.Name, first.keyword.Range.Start))
			if h.kind == "problem" {
				d.reference = duplicateSectionReference(s.key)
			}
			again = append(again, s)
			continue
		}
		kept = append(kept, s)
	}
	reference := opts.Mode == Reference
	var allowed, required []string
	switch h.kind {
	case "problem":
		p := &mem.problem
		*p = Problem{Range: rng, Name: name, Comments: comments, Source: file.Source}
		allowed, required = problemSections, problemSections
		p.Sections = mem.sections[:0:len(mem.sections)]
		for _, s := range kept {
			sec := Section{Keyword: s.keyword, Range: s.rng}
			switch s.key {
			case ":domain":
				p.Sections = append(p.Sections, sec)
				if len(s.names) != 1 {
					d := errorf(s.rng, codeOperandCount, fmt.Sprintf("(:domain ...) names one domain, found %d", len(s.names)),
						"write (:domain omnigibson)")
					if len(s.names) > 1 {
						d.reference = "the reference reads the last"
					}
				}
				if len(s.names) > 0 {
					p.Domain = s.names[0]
					if reference {
						p.Domain = s.names[len(s.names)-1]
					}
				}
			case ":objects":
				p.Sections = append(p.Sections, sec)
				p.Objects = s.objects
			case ":init":
				p.Sections = append(p.Sections, sec)
				p.Init = s.forms
			case ":goal":
				p.Sections = append(p.Sections, sec)
				p.Goal = lowerGoal(s, opts, errorf)
				if p.Goal == nil && !s.goalBroken && !hasErrorIn(*diags, s.rng) {
					errorf(s.rng, codeOperandCount, "(:goal) is empty", "write the goal formula, e.g. (:goal (and ...))")
				}
			}
		}
		if reference {
			mergeAgain(p, again, opts, errorf)
			dedupeInstances(p, errorf)
		}
		p.numberNodes()
		file.Problem = p
	case "domain":
		d := &Domain{Range: rng, Name: name, Comments: comments, Source: file.Source}
		allowed, required = domainSections, domainSections[1:]
		for _, s := range kept {
			switch s.key {
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
		if !slices.Contains(allowed, s.key) && knownSection(s.key) {
			d := errorf(s.keyword.Range, codeMisplacedSection, fmt.Sprintf("section %s does not belong in a %s file", s.keyword.Name, h.kind),
				fmt.Sprintf("a %s file has the sections %v", h.kind, allowed))
			d.reference = "the reference ignores it"
		}
	}
	missingSections(h.kind, name, required, seen, reference, errorf)
}

// missingSections names the sections a file lacks. One diagnostic names
// them all, as they all point at the name and only one error per line is
// kept; in Reference mode, those the reference does without (a problem's
// :domain and :objects) get a warning of their own.
func missingSections(kind string, name Ident, required []string, seen func(string) *gSection, reference bool,
	errorf func(r Range, code, summary, detail string) *Diagnostic) {
	var optional, needed []string
	for _, key := range required {
		if seen(key) != nil {
			continue
		}
		if kind == "problem" && (key == ":domain" || key == ":objects") {
			optional = append(optional, key)
		} else {
			needed = append(needed, key)
		}
	}
	report := func(missing []string, note string) {
		if len(missing) == 0 {
			return
		}
		list := strings.Join(missing, ", ")
		if n := len(missing); n > 1 {
			list = strings.Join(missing[:n-1], ", ") + " and " + missing[n-1]
		}
		noun := "section"
		if len(missing) > 1 {
			noun = "sections"
		}
		d := errorf(name.Range, codeMissingSection, fmt.Sprintf("%s %s has no %s %s", kind, name.Name, list, noun),
			fmt.Sprintf("add (%s ...)", strings.Join(missing, " ...) (")))
		d.reference = note
	}
	without := "the reference loads it without it"
	if len(optional) > 1 {
		without = "the reference loads it without them"
	}
	if reference && len(needed) > 0 {
		report(needed, "")
		report(optional, without)
		return
	}
	note := ""
	if len(needed) == 0 {
		note = without
	}
	report(append(needed, optional...), note)
}

// duplicateSectionReference says what the reference does with a second
// section of a problem: it reads the sections last to first, so the first
// :init and :domain win, :objects merge and the goals of both are
// evaluated.
func duplicateSectionReference(key string) string {
	switch key {
	case ":init":
		return "the reference reads only the first (:init ...)"
	case ":domain":
		return "the reference checks each against the domain"
	case ":objects":
		return "the reference merges the sections"
	case ":goal":
		return "the reference evaluates the goals of both sections"
	}
	return ""
}

// lowerGoal returns the goal of a (:goal ...) section. The reference reads
// only its first formula, so each further one is reported where it is
// written, and whatever follows the first formula is never read by the
// reference: its findings, but for parentheses, which the reference
// counts, are ones it passes over.
func lowerGoal(s *gSection, opts Options, errorf func(r Range, code, summary, detail string) *Diagnostic) Formula {
	if s.goalBroken || len(s.forms) == 0 {
		return nil
	}
	for _, d := range s.diags[s.goalFirstDiags:] {
		if d.Code != codeUnclosedParen && d.Code != codeExtraParen && d.Code != codeInvalidUTF8 {
			d.reference = "the reference never reads past the first goal formula"
		}
	}
	if len(s.forms) == 1 {
		return s.forms[0]
	}
	note := "only the first is evaluated, as in the official scores (--goal-formulas all evaluates them all)"
	if opts.Goal == AllGoalFormulas {
		note = "their conjunction is evaluated, as --goal-formulas all asks"
	}
	for _, f := range s.forms[1:] {
		r := f.Info().Range
		d := errorf(r, codeGoalFormulas, fmt.Sprintf("%s at %s is ignored by the reference, which reads only the first goal formula",
			shortFormula(f), r.Start), "wrap them in (and ...)")
		d.reference = note
	}
	if opts.Mode == Reference && opts.Goal == FirstGoalFormula {
		return s.forms[0]
	}
	and := &And{Xs: s.forms}
	and.Range = s.rng
	return and
}

// shortFormula is a formula's text for a message, cut to one short line.
func shortFormula(f Formula) string {
	const max = 60
	text := String(f)
	if i := strings.IndexByte(text, '\n'); i >= 0 {
		text = text[:i] + " …"
	}
	if len(text) > max {
		cut := max
		for cut > 0 && !utf8.RuneStart(text[cut]) {
			cut--
		}
		text = text[:cut] + " …"
	}
	return text
}

// mergeAgain reads second sections as the reference does, in Reference
// mode: :objects merge, the goals' conjuncts are all evaluated, a second
// :init or :domain is ignored.
func mergeAgain(p *Problem, again []*gSection, opts Options, errorf func(r Range, code, summary, detail string) *Diagnostic) {
	var goals []Formula
	for _, s := range again {
		switch s.key {
		case ":objects":
			p.Objects = append(slices.Clip(p.Objects), s.objects...)
		case ":goal":
			if g := lowerGoal(s, opts, errorf); g != nil {
				goals = append(goals, g)
			}
		}
	}
	if len(goals) == 0 || p.Goal == nil {
		return
	}
	// The reference reads the sections last to first and lists each
	// goal's top-level conjuncts: so do we.
	var xs []Formula
	for i := len(goals) - 1; i >= 0; i-- {
		xs = append(xs, conjuncts(goals[i])...)
	}
	xs = append(xs, conjuncts(p.Goal)...)
	and := &And{Xs: xs}
	and.Range = p.Goal.Info().Range
	p.Goal = and
}

func conjuncts(f Formula) []Formula {
	if and, ok := f.(*And); ok {
		return and.Xs
	}
	return []Formula{f}
}

// dedupeInstances holds an instance declared twice once, as the
// reference's scope does, and reports what the reference makes of type
// lines that repeat a type: it keeps only the last.
func dedupeInstances(p *Problem, errorf func(r Range, code, summary, detail string) *Diagnostic) {
	first := map[string]Range{}
	lines := map[string]*ObjectDecl{}
	for _, d := range p.Objects {
		if prev, ok := lines[d.Type.Key()]; ok {
			e := errorf(d.Type.Range, codeReferenceTypes, fmt.Sprintf("a second :objects line for %s", d.Type.Name),
				fmt.Sprintf("merge it with the line at %s", prev.Range.Start))
			e.reference = "the reference keeps only the last line of a type and loses the instances of the others; both are held here"
		}
		lines[d.Type.Key()] = d
		kept := d.Instances[:0:0]
		dup := false
		for _, inst := range d.Instances {
			if r, ok := first[inst.Key()]; ok {
				e := errorf(inst.Range, codeDuplicateDecl, fmt.Sprintf("instance %s is declared twice", inst.Name),
					fmt.Sprintf("remove it here; it is first declared at %s", r.Start))
				e.reference = "the reference holds it once, and so does this load"
				dup = true
				continue
			}
			first[inst.Key()] = inst.Range
			kept = append(kept, inst)
		}
		if dup {
			d.Instances = kept
		}
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
