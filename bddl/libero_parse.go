package bddl

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"
)

// Dialect is the BDDL dialect a file is written in.
type Dialect uint8

const (
	// DialectAuto detects the dialect from the file's :domain.
	DialectAuto Dialect = iota
	// DialectBehavior is BEHAVIOR-1K's BDDL.
	DialectBehavior
	// DialectLibero is LIBERO's BDDL, (:domain robosuite).
	DialectLibero
)

func (d Dialect) String() string {
	return [...]string{"auto", "behavior1k", "libero"}[d]
}

// ParseDialect reads a --dialect value.
func ParseDialect(s string) (Dialect, error) {
	switch strings.ToLower(s) {
	case "", "auto":
		return DialectAuto, nil
	case "behavior1k", "behavior", "b1k":
		return DialectBehavior, nil
	case "libero":
		return DialectLibero, nil
	}
	return DialectAuto, fmt.Errorf("unknown dialect %q (want auto, behavior1k or libero)", s)
}

// IsLibero reports whether src is in LIBERO's dialect: it declares
// (:domain robosuite), or it has a section only LIBERO has (:regions,
// :fixtures, :obj_of_interest, :language), so that a LIBERO file with a
// wrong or missing :domain gets LIBERO's diagnostics. It looks only at ':'
// bytes, so it costs little on BEHAVIOR-1K files, which have a handful.
func IsLibero(src []byte) bool {
	for i := 0; ; {
		j := bytes.IndexByte(src[i:], ':')
		if j < 0 {
			return false
		}
		i += j + 1
		if i >= 2 && src[i-2] == '(' {
			for _, kw := range liberoSections {
				if len(src)-i >= len(kw) && bytes.EqualFold(src[i:i+len(kw)], []byte(kw)) &&
					(i+len(kw) == len(src) || !nameByte[src[i+len(kw)]]) {
					return true
				}
			}
		}
		if len(src)-i < 6 || !bytes.EqualFold(src[i:i+6], []byte("domain")) {
			continue
		}
		k := i + 6
		for k < len(src) && (src[k] == ' ' || src[k] == '\t' || src[k] == '\n' || src[k] == '\r') {
			k++
		}
		if len(src)-k >= 9 && bytes.EqualFold(src[k:k+9], []byte("robosuite")) &&
			(k+9 == len(src) || !nameByte[src[k+9]]) {
			return true
		}
	}
}

// liberoSections are the section keywords only LIBERO's dialect has.
var liberoSections = [...]string{"regions", "fixtures", "obj_of_interest", "language"}

// Codes of LIBERO dialect syntax diagnostics.
const (
	codeLiberoDomain     = "libero-domain"
	codeLiberoRegion     = "libero-region-syntax"
	codeLiberoNumber     = "libero-number"
	codeLiberoGoalForm   = "libero-goal-form"
	codeLiberoInitForm   = "libero-init-form"
	codeLiberoLanguage   = "libero-language"
	codeLiberoSceneProps = "libero-scene-properties"
)

// liberoSlab is the reusable memory of a LIBERO parse's S-expression tree.
type liberoSlab struct {
	nodes []sexp
	ptrs  []*sexp
}

var liberoSlabs sync.Pool

// sexp is a node of the generic S-expression tree the dialect is read
// through: LIBERO itself reads files as nested token lists
// (bddl.parsing.scan_tokens) and interprets them section by section.
type sexp struct {
	tok   token // the atom, or the list's '('
	list  bool
	items []*sexp
	end   token // the list's ')'
}

func (s *sexp) rng() Range {
	if !s.list {
		return s.tok.rng()
	}
	if s.end.typ == tokEOF { // unclosed: it runs to the end of the file
		return Range{Start: s.tok.pos(), End: s.end.pos()}
	}
	return Range{Start: s.tok.pos(), End: Pos{Offset: s.end.off + 1, Line: s.end.line, Col: s.end.col + 1}}
}

// head is the first item's text when it is an atom.
func (lp *lparser) head(s *sexp) string {
	if !s.list || len(s.items) == 0 || s.items[0].list {
		return ""
	}
	return Fold(lp.text(s.items[0]))
}

type lparser struct {
	slab  []sexp  // nodes are cut from it: one allocation per 256 nodes
	ptrs  []*sexp // lists' items are cut from it
	sc    *scanner
	diags Diagnostics
	ids   int
	mode  Mode
	src   []byte
}

// node returns a fresh node holding t.
func (lp *lparser) node(t token, list bool) *sexp {
	if len(lp.slab) == cap(lp.slab) {
		lp.slab = make([]sexp, 0, max(256, cap(lp.slab)))
	}
	lp.slab = append(lp.slab, sexp{tok: t, list: list})
	return &lp.slab[len(lp.slab)-1]
}

func (lp *lparser) text(s *sexp) string { return lp.sc.text(s.tok) }

func (lp *lparser) ident(s *sexp) Ident { return Ident{Name: lp.text(s), Range: s.tok.rng()} }

func (lp *lparser) errorf(r Range, code, fix, format string, args ...any) *Diagnostic {
	d := &Diagnostic{Severity: Error, Code: code, Subject: r, Summary: fmt.Sprintf(format, args...), Detail: fix}
	lp.diags = append(lp.diags, d)
	return d
}

// lenient records what LIBERO does about a defect it loads anyway; a
// Reference-mode read turns the error into a warning saying so.
func lenient(d *Diagnostic, what string) { d.reference = what }

// read builds the S-expression forest of the file. Children wait on one
// shared stack until their list closes, then move to an exact-size slice
// cut from a slab, so a file's tree costs a few allocations.
func (lp *lparser) read() []*sexp {
	var top []*sexp
	var open []*sexp // the lists not yet closed
	var marks []int  // where each open list's children start in kids
	var kids []*sexp
	closeList := func(n *sexp, end token) {
		m := marks[len(marks)-1]
		n.items = lp.items(kids[m:])
		n.end = end
		kids = kids[:m]
		open, marks = open[:len(open)-1], marks[:len(marks)-1]
	}
	for {
		var t token
		lp.sc.scanInto(&t)
		switch t.typ {
		case tokEOF:
			if len(open) > 0 {
				lp.errorf(open[len(open)-1].tok.rng(), codeUnclosedParen, "add the missing ')'; every '(' needs a matching ')'",
					"this '(' is not closed before the end of the file")
				for len(open) > 0 {
					closeList(open[len(open)-1], t)
				}
			}
			return top
		case tokLParen:
			if len(open) >= maxDepth {
				lp.errorf(t.rng(), codeTooDeep, "LIBERO definitions nest a few levels", "nesting deeper than %d levels", maxDepth)
				for len(open) > 0 {
					closeList(open[len(open)-1], t)
				}
				return top
			}
			n := lp.node(t, true)
			if len(open) > 0 {
				kids = append(kids, n)
			} else {
				top = append(top, n)
			}
			open = append(open, n)
			marks = append(marks, len(kids))
		case tokRParen:
			if len(open) == 0 {
				lp.errorf(t.rng(), codeExtraParen, "remove it", "unexpected ')' with no '(' open")
				continue
			}
			closeList(open[len(open)-1], t)
		default:
			n := lp.node(t, false)
			if len(open) > 0 {
				kids = append(kids, n)
			} else {
				top = append(top, n)
			}
		}
	}
}

// items copies children into a slice cut from the pointer slab.
func (lp *lparser) items(kids []*sexp) []*sexp {
	n := len(kids)
	if n == 0 {
		return nil
	}
	if cap(lp.ptrs)-len(lp.ptrs) < n {
		lp.ptrs = make([]*sexp, 0, max(1024, n))
	}
	k := len(lp.ptrs)
	lp.ptrs = append(lp.ptrs, kids...)
	return lp.ptrs[k : k+n : k+n]
}

func parseLibero(filename string, src []byte, opts Options) (*File, Diagnostics) {
	source := NewSource(filename, src)
	file := &File{Source: source}
	var comments []Comment
	sc := newScanner(filename, src)
	sc.comments = &comments
	sc.header = false
	// The S-expression tree lives only while the file is lowered, so its
	// slabs are reused from file to file; the first is sized from the
	// file (about one node per 7 bytes).
	mem, _ := liberoSlabs.Get().(*liberoSlab)
	if mem == nil {
		n := min(len(src)/6+16, 1<<16)
		mem = &liberoSlab{nodes: make([]sexp, 0, n), ptrs: make([]*sexp, 0, n)}
	}
	lp := &lparser{sc: sc, mode: opts.Mode, src: src, slab: mem.nodes[:0], ptrs: mem.ptrs[:0]}
	defer func() {
		// Keep the largest slabs seen; drop the tree's pointers.
		clear(lp.ptrs)
		if cap(lp.slab) > cap(mem.nodes) {
			mem.nodes = lp.slab[:0]
		}
		if cap(lp.ptrs) > cap(mem.ptrs) {
			mem.ptrs = lp.ptrs[:0]
		}
		if cap(mem.nodes) <= 1<<16 {
			liberoSlabs.Put(mem)
		}
	}()
	forest := lp.read()
	if len(forest) == 0 {
		lp.errorf(Range{Start: Pos{Line: 1, Col: 1}, End: Pos{Line: 1, Col: 1}}, codeEmptyFile,
			"a LIBERO file holds (define (problem NAME) (:domain robosuite) ...)", "the file has no definition")
		return file, opts.finish(source, lp.diags)
	}
	def := forest[0]
	for _, extra := range forest[1:] {
		lp.errorf(extra.rng(), codeOutsideDefine, "move it inside (define ...) or delete it", "text after the definition")
	}
	if !def.list || lp.head(def) != "define" {
		lp.errorf(def.rng(), codeUnexpectedToken, "a LIBERO file starts with (define (problem NAME)", "expected (define")
		return file, opts.finish(source, lp.diags)
	}
	p := &Problem{Source: source, Range: def.rng(), Libero: &Libero{}, Comments: comments}
	file.Problem = p
	items := def.items[1:]
	if len(items) == 0 || !items[0].list || lp.head(items[0]) != "problem" || len(items[0].items) != 2 || items[0].items[1].list {
		r := def.tok.rng()
		if len(items) > 0 {
			r = items[0].rng()
		}
		lp.errorf(r, codeUnexpectedToken, "write (problem NAME) after define, NAME being the problem class", "expected (problem NAME)")
		return file, opts.finish(source, lp.diags)
	}
	p.Name = lp.ident(items[0].items[1])
	seen := map[string]Range{}
	for _, s := range items[1:] {
		if !s.list || len(s.items) == 0 || s.items[0].list || s.items[0].tok.typ != tokKeyword {
			lp.errorf(s.rng(), codeUnexpectedToken, "sections are written (:keyword ...)", "expected a section")
			continue
		}
		kw := lp.ident(s.items[0])
		key := kw.Key()
		p.Sections = append(p.Sections, Section{Keyword: kw, Range: s.rng()})
		if first, dup := seen[key]; dup {
			d := lp.errorf(kw.Range, codeDuplicateSection, "merge the two sections",
				"duplicate section %s (first at %d:%d)", kw.Name, first.Start.Line, first.Start.Col)
			lenient(d, "LIBERO uses the first one")
			p.Sections = p.Sections[:len(p.Sections)-1]
			continue
		}
		seen[key] = s.rng()
		args := s.items[1:]
		switch key {
		case ":domain":
			if len(args) != 1 || args[0].list {
				lp.errorf(s.rng(), codeLiberoDomain, "write (:domain robosuite)", "(:domain) takes one name")
				continue
			}
			p.Domain = lp.ident(args[0])
			if p.Domain.Key() != "robosuite" {
				lp.errorf(p.Domain.Range, codeLiberoDomain, "LIBERO problems are written (:domain robosuite)",
					"domain %s is not robosuite; LIBERO refuses it (\"Different domain specified in problem file\")", p.Domain.Name)
			}
		case ":language":
			lp.language(p.Libero, s)
		case ":regions":
			for _, r := range args {
				if reg := lp.region(r); reg != nil {
					p.Libero.Regions = append(p.Libero.Regions, reg)
				}
			}
		case ":fixtures":
			p.Libero.Fixtures = lp.typed(args, "fixture")
		case ":objects":
			p.Objects = lp.typed(args, "object")
		case ":obj_of_interest":
			for _, a := range args {
				if a.list || a.tok.typ != tokName {
					lp.errorf(a.rng(), codeUnexpectedToken, "list object or region names", "expected a name in :obj_of_interest")
					continue
				}
				p.Libero.ObjOfInterest = append(p.Libero.ObjOfInterest, lp.ident(a))
			}
		case ":init":
			for _, a := range args {
				if at := lp.atom(a, codeLiberoInitForm); at != nil {
					p.Init = append(p.Init, at)
				}
			}
		case ":goal":
			lp.goal(p, s, args)
		default:
			r := s.rng()
			p.Libero.Unknown = append(p.Libero.Unknown, UnknownSection{Keyword: kw, Range: r,
				Text: string(src[r.Start.Offset:r.End.Offset])})
			switch key {
			case ":requirements":
				// LIBERO passes over it (robosuite_parse_problem).
			case ":scene_properties":
				if len(args) > 0 {
					lp.errorf(kw.Range, codeLiberoSceneProps, "delete the section: no shipped task uses it",
						"LIBERO's reader of :scene_properties fails on any entry (bddl_utils.get_scenes reads an undefined variable)")
				}
			default:
				d := lp.errorf(kw.Range, codeUnknownSection,
					"LIBERO knows :domain, :language, :regions, :fixtures, :objects, :obj_of_interest, :init and :goal",
					"unknown section %s", kw.Name)
				lenient(d, "LIBERO prints a note and ignores it")
			}
		}
	}
	for _, want := range [...]string{":domain", ":language", ":fixtures", ":objects", ":init", ":goal"} {
		if _, ok := seen[want]; !ok {
			d := lp.errorf(p.Name.Range, codeMissingSection, "add ("+want+" ...)", "the problem has no %s section", want)
			if want != ":goal" && want != ":init" {
				lenient(d, "LIBERO reads it as empty")
			} else {
				lenient(d, "LIBERO reads it as empty, so "+map[string]string{":goal": "success is immediate", ":init": "nothing is placed"}[want])
			}
		}
	}
	p.NumNodes = lp.ids
	return file, opts.finish(source, lp.diags)
}

// language reads (:language words...): every item an atom, joined by one
// space where the source has white space between them.
func (lp *lparser) language(l *Libero, s *sexp) {
	l.LanguageRange = s.rng()
	words := s.items[1:]
	for _, it := range words {
		if it.list {
			lp.errorf(it.rng(), codeLiberoLanguage, "remove the parentheses from the instruction",
				"parentheses inside :language; LIBERO cannot join the instruction's words")
			return
		}
	}
	if len(words) == 0 {
		return
	}
	// The common case: words one space apart, the source's own text.
	first, last := words[0].tok, words[len(words)-1].tok
	span := lp.sc.src[first.off : last.off+last.n]
	if int(first.line) == int(last.line) && !strings.Contains(span, "  ") && !strings.ContainsAny(span, "\t;") {
		l.Language = span
		return
	}
	var b strings.Builder
	prevEnd := int32(-1)
	for _, it := range words {
		if prevEnd >= 0 && it.tok.off != prevEnd {
			b.WriteByte(' ')
		}
		b.WriteString(lp.text(it))
		prevEnd = it.tok.off + it.tok.n
	}
	l.Language = b.String()
}

// typed reads "a b - type c - type2" as :objects and :fixtures are written.
func (lp *lparser) typed(args []*sexp, what string) []*ObjectDecl {
	var out []*ObjectDecl
	var cur []Ident
	start := -1
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a.list {
			lp.errorf(a.rng(), codeBadDecl, "write NAME... - CATEGORY", "unexpected list in a %s declaration", what)
			continue
		}
		if a.tok.typ == tokDash {
			if i+1 >= len(args) || args[i+1].list || args[i+1].tok.typ != tokName {
				lp.errorf(a.rng(), codeMissingType, "write the category after '-'", "'-' without a category")
				continue
			}
			if len(cur) == 0 {
				lp.errorf(a.rng(), codeBareDash, "write the instance names before '- CATEGORY'", "a category with no instances")
			}
			typ := lp.ident(args[i+1])
			for _, prev := range out {
				if prev.Type.Key() == typ.Key() {
					d := lp.errorf(typ.Range, codeReferenceTypes, "list every "+typ.Name+" on one line: a b - "+typ.Name,
						"a second %s line for category %s (first at %d:%d)", what, typ.Name, prev.Type.Range.Start.Line, prev.Type.Range.Start.Col)
					lenient(d, "LIBERO keeps only the last line's instances (robosuite_parse_problem keys them by category)")
					break
				}
			}
			d := &ObjectDecl{Instances: cur, Type: typ, Range: Range{Start: typ.Range.Start, End: typ.Range.End}}
			if len(cur) > 0 {
				d.Range.Start = cur[0].Range.Start
			}
			out = append(out, d)
			cur, start = nil, -1
			i++
			continue
		}
		if a.tok.typ != tokName {
			lp.errorf(a.rng(), codeInvalidChar, "names are letters, digits and _ . -", "invalid name %q", lp.text(a))
			continue
		}
		if start < 0 {
			start = i
		}
		cur = append(cur, lp.ident(a))
	}
	if len(cur) > 0 {
		d := lp.errorf(cur[0].Range, codeMissingType, "end the line with - CATEGORY",
			"%s %s has no category", what, cur[0].Name)
		lenient(d, "LIBERO files it under the category \""+what+"\", which no model has")
	}
	return out
}

// atom reads a ground atom (Pred name...).
func (lp *lparser) atom(s *sexp, code string) *Atom {
	if !s.list || len(s.items) == 0 {
		lp.errorf(s.rng(), code, "write (Predicate name ...)", "expected a ground atom")
		return nil
	}
	if s.items[0].list || s.items[0].tok.typ != tokName {
		lp.errorf(s.items[0].rng(), code, "write (Predicate name ...); LIBERO has no connectives here",
			"expected a predicate name")
		return nil
	}
	a := &Atom{Pred: lp.ident(s.items[0])}
	a.ID, a.Range = lp.ids, s.rng()
	lp.ids++
	for _, t := range s.items[1:] {
		if t.list || t.tok.typ != tokName {
			lp.errorf(t.rng(), code, "arguments are object, fixture or region names",
				"expected a name as argument of %s", a.Pred.Name)
			return nil
		}
		a.Args = append(a.Args, Term{Name: lp.text(t), Kind: InstanceTerm, Range: t.tok.rng()})
	}
	return a
}

// goal reads (:goal (And atom...)) or (:goal atom): LIBERO's success check
// is the conjunction of a list of ground atoms (_check_success).
func (lp *lparser) goal(p *Problem, s *sexp, args []*sexp) {
	if len(args) == 0 {
		d := lp.errorf(s.rng(), codeEmptyFormula, "write (:goal (And ...))", "empty :goal")
		lenient(d, "LIBERO's success check is then always true")
		return
	}
	for _, extra := range args[1:] {
		d := lp.errorf(extra.rng(), codeGoalFormulas, "put every atom inside one (And ...)", "a second goal formula")
		lenient(d, "LIBERO reads only the first")
	}
	g := args[0]
	if lp.head(g) == "and" {
		and := &And{}
		and.ID, and.Range = lp.ids, g.rng()
		lp.ids++
		for _, x := range g.items[1:] {
			if x.list && (lp.head(x) == "and" || lp.head(x) == "or" || lp.head(x) == "not") {
				lp.errorf(x.rng(), codeLiberoGoalForm, "LIBERO goals are one (And ...) of ground atoms",
					"(%s ...) inside the goal's And; LIBERO evaluates only atoms", lp.head(x))
				continue
			}
			if a := lp.atom(x, codeLiberoGoalForm); a != nil {
				and.Xs = append(and.Xs, a)
			}
		}
		p.Goal = and
		return
	}
	if h := lp.head(g); h == "or" || h == "not" || h == "forall" || h == "exists" {
		lp.errorf(g.rng(), codeLiberoGoalForm, "LIBERO goals are one (And ...) of ground atoms", "(%s ...) is not a LIBERO goal", h)
		return
	}
	if a := lp.atom(g, codeLiberoGoalForm); a != nil {
		p.Goal = a
	}
}

// region reads (NAME (:target T) (:ranges (...)) (:yaw_rotation (...)) (:rgba (...))).
func (lp *lparser) region(s *sexp) *Region {
	if !s.list || len(s.items) == 0 || s.items[0].list || s.items[0].tok.typ != tokName {
		lp.errorf(s.rng(), codeLiberoRegion, "write (NAME (:target T) (:ranges ((x0 y0 x1 y1))))", "expected a region")
		return nil
	}
	r := &Region{Name: lp.ident(s.items[0]), Range: s.rng()}
	for _, a := range s.items[1:] {
		if !a.list || len(a.items) == 0 || a.items[0].list || a.items[0].tok.typ != tokKeyword {
			lp.errorf(a.rng(), codeLiberoRegion, "region attributes are (:target ...), (:ranges ...), (:yaw_rotation ...), (:rgba ...)",
				"expected a region attribute")
			continue
		}
		kw := lp.ident(a.items[0])
		r.Attrs = append(r.Attrs, kw)
		vals := a.items[1:]
		switch kw.Key() {
		case ":target":
			if len(vals) != 1 || vals[0].list || vals[0].tok.typ != tokName {
				lp.errorf(a.rng(), codeLiberoRegion, "write (:target NAME)", "(:target) takes one name (LIBERO asserts it)")
				continue
			}
			r.Target = lp.ident(vals[0])
		case ":ranges":
			r.RangesRange = a.rng()
			if len(vals) != 1 || !vals[0].list {
				lp.errorf(a.rng(), codeLiberoRegion, "write (:ranges ((x0 y0 x1 y1) ...))", "(:ranges) takes one list of rectangles")
				continue
			}
			for _, q := range vals[0].items {
				nums, ok := lp.numbers(q, 4, "a rectangle (x0 y0 x1 y1)", false)
				if ok {
					r.Ranges = append(r.Ranges, Rect{V: [4]Number(nums), Range: q.rng()})
				}
			}
		case ":yaw_rotation":
			r.YawRange = a.rng()
			if len(vals) != 1 || !vals[0].list {
				lp.errorf(a.rng(), codeLiberoRegion, "write (:yaw_rotation ((a b)))", "(:yaw_rotation) takes one list of ranges")
				continue
			}
			for _, q := range vals[0].items {
				nums, ok := lp.numbers(q, 2, "a yaw range (a b)", true)
				if ok {
					r.Yaw = append(r.Yaw, YawRange{V: [2]Number(nums), Range: q.rng()})
				}
			}
			if len(r.Yaw) > 1 {
				d := lp.errorf(r.Yaw[1].Range, codeLiberoRegion, "keep one yaw range per region",
					"more than one yaw range")
				lenient(d, "LIBERO keeps only the last (get_regions overwrites yaw_rotation)")
			}
		case ":rgba":
			if len(vals) != 1 || !vals[0].list {
				lp.errorf(a.rng(), codeLiberoRegion, "write (:rgba (r g b a))", "(:rgba) takes one list of four numbers")
				continue
			}
			if nums, ok := lp.numbers(vals[0], 4, "a colour (r g b a)", false); ok {
				r.RGBA = nums
			}
		default:
			lp.errorf(kw.Range, codeLiberoRegion, "region attributes are :target, :ranges, :yaw_rotation and :rgba",
				"unknown region attribute %s; LIBERO raises NotImplementedError", kw.Name)
		}
	}
	if r.Target.Name == "" {
		lp.errorf(r.Name.Range, codeLiberoRegion, "add (:target FIXTURE_OR_OBJECT)",
			"region %s has no :target; LIBERO cannot name it", r.Name.Name)
	}
	return r
}

// numbers reads a list of n numbers (any count when n is 0). Yaw values
// are Python expressions in LIBERO (eval); pi, -pi, pi/2, 2*pi are read.
func (lp *lparser) numbers(q *sexp, n int, what string, expr bool) ([]Number, bool) {
	if n > 0 && (!q.list || len(q.items) != n) {
		got := 0
		if q.list {
			got = len(q.items)
		}
		lp.errorf(q.rng(), codeLiberoRegion, "write "+what, "expected %s, found %d values", what, got)
		return nil, false
	}
	out := make([]Number, 0, len(q.items))
	ok := true
	for _, it := range q.items {
		if it.list {
			lp.errorf(it.rng(), codeLiberoNumber, "write a number", "expected a number")
			ok = false
			continue
		}
		txt := lp.text(it)
		v, err := strconv.ParseFloat(txt, 64)
		if err != nil && expr {
			v, err = piExpr(txt)
		}
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			lp.errorf(it.rng(), codeLiberoNumber, "write a finite decimal number", "%q is not a number", txt)
			ok = false
			continue
		}
		out = append(out, Number{Text: txt, Value: v, Range: it.tok.rng()})
	}
	return out, ok
}

// piExpr evaluates the few Python expressions yaw values are written as:
// [-][k*]pi[/d].
func piExpr(s string) (float64, error) {
	t := strings.ToLower(s)
	sign := 1.0
	if strings.HasPrefix(t, "-") {
		sign, t = -1, t[1:]
	}
	k, d := 1.0, 1.0
	if i := strings.Index(t, "*"); i >= 0 {
		v, err := strconv.ParseFloat(t[:i], 64)
		if err != nil {
			return 0, err
		}
		k, t = v, t[i+1:]
	}
	if i := strings.Index(t, "/"); i >= 0 {
		v, err := strconv.ParseFloat(t[i+1:], 64)
		if err != nil || v == 0 {
			return 0, fmt.Errorf("bad divisor")
		}
		d, t = v, t[:i]
	}
	if t != "pi" && t != "np.pi" {
		return 0, fmt.Errorf("not an expression of pi")
	}
	return sign * k * math.Pi / d, nil
}
