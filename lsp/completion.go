package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/kb"
	"github.com/openbddl/bddl/libero"
)

// maxCompletions bounds a completion list; the list says it is incomplete
// when cut, so the editor asks again as more is typed.
const maxCompletions = 200

// completionSite is where the cursor is, for completion.
type completionSite struct {
	off         int    // the cursor
	start       int    // where the word being typed starts
	end         int    // where that word ends (it may go on after the cursor)
	prefix      string // what is typed of the word, before the cursor
	form        int    // the innermost form open at the cursor, -1 outside
	head        bool   // the word is the first element of its form
	arg         int    // for an argument: its position
	afterDash   bool   // the word follows a '-' (a type position)
	predicate   string // for an argument: the atom's predicate, folded
	prevElement string // the name before the word in its form
}

func (o *outline) site(off int) completionSite {
	c := completionSite{off: off, start: off, end: off, form: o.formAt(off), arg: -1}
	if ni := o.nameAt(off); ni >= 0 && o.names[ni].start < off {
		n := &o.names[ni]
		c.start, c.end, c.prefix = n.start, n.end, o.text[n.start:off]
	}
	if c.form < 0 {
		return c
	}
	f := &o.forms[c.form]
	// What stands in the form before the word: names and child forms.
	elements := 0
	for i := range o.names {
		n := &o.names[i]
		if n.start >= c.start {
			break
		}
		if n.form == c.form {
			elements++
			c.prevElement = n.text
		}
	}
	for i := c.form + 1; i < len(o.forms) && o.forms[i].open < c.start; i++ {
		if o.forms[i].parent == c.form {
			elements++
			c.prevElement = ""
		}
	}
	c.head = elements == 0
	c.afterDash = c.prevElement == "-"
	if f.kind == formAtom && !c.head && f.head >= 0 {
		c.predicate = o.names[f.head].key()
		c.arg = elements - 1
	}
	return c
}

func (s *server) completion(_ context.Context, doc *document, params json.RawMessage) (any, error) {
	var p positionParams
	if err := json.Unmarshal(params, &p); err != nil {
		return nil, &requestError{codeInvalidParams, err.Error()}
	}
	o := doc.outline()
	off := doc.offset(p.Position)
	if o.inComment(off) {
		return nil, nil
	}
	c := o.site(off)
	cands, complete := s.candidates(doc, o, c)
	list := completionList{IsIncomplete: !complete, Items: []completionItem{}}
	r := doc.rangeOf(c.start, c.end)
	for i, cand := range cands {
		cand.TextEdit = &textEdit{Range: r, NewText: cand.Label}
		cand.SortText = fmt.Sprintf("%04d", i)
		list.Items = append(list.Items, cand)
	}
	return list, nil
}

// candidates are the completions at site c, best first; complete is false
// when the list was cut.
func (s *server) candidates(doc *document, o *outline, c completionSite) (out []completionItem, complete bool) {
	lib := s.isLibero(doc)
	if c.form < 0 {
		return filterItems([]completionItem{{Label: "define", Kind: kindKeyword}}, c.prefix), true
	}
	f := &o.forms[c.form]
	var parent *form
	if f.parent >= 0 {
		parent = &o.forms[f.parent]
	}
	switch {
	case f.depth == 0 && c.head:
		return filterItems([]completionItem{{Label: "define", Kind: kindKeyword}}, c.prefix), true
	case f.depth == 1 && c.head:
		return filterItems(sectionItems(lib), c.prefix), true
	case (f.kind == formSection && (f.section == ":objects" || f.section == ":fixtures") || f.kind == formVarDecl) && c.afterDash:
		return s.typeItems(doc, o, c.prefix, lib)
	case f.kind == formVarDecl && c.head:
		return nil, true
	case (f.section == ":init" || f.section == ":goal") && f.depth >= 2 && c.head:
		if parent != nil && parent.kind == formQuantifier && !o.quantifierBodyNext(f.parent, c.form) {
			return nil, true // a variable declaration or count comes first
		}
		return filterItems(s.predicateItems(o, lib, f.section == ":goal"), c.prefix), true
	case f.kind == formAtom && c.arg >= 0:
		return filterItems(s.argumentItems(doc, o, c, lib), c.prefix), true
	case f.kind == formSection && f.section == ":obj_of_interest":
		return filterItems(instanceItems(o, nil), c.prefix), true
	case f.kind == formRegion && !c.head, f.section == ":regions" && f.depth == 3 && c.head:
		var items []completionItem
		for _, k := range []string{":target", ":ranges", ":yaw_rotation", ":rgba"} {
			items = append(items, completionItem{Label: k, Kind: kindKeyword, Detail: regionAttrDocs[k]})
		}
		return filterItems(items, c.prefix), true
	case f.kind == formAttr && f.head >= 0 && strings.EqualFold(o.names[f.head].text, ":target"):
		return filterItems(instanceItems(o, func(n *name) bool { return n.section == ":fixtures" }), c.prefix), true
	}
	return nil, true
}

// quantifierBodyNext reports whether the form child of quantifier q is
// where its body goes: after its count and variable declarations.
func (o *outline) quantifierBodyNext(q, child int) bool {
	head := ""
	if h := o.forms[q].head; h >= 0 {
		head = o.names[h].key()
	}
	need := 1 // (?x - t)
	switch head {
	case "forn":
		need = 2
	case "forpairs":
		need = 2
	case "fornpairs":
		need = 3
	}
	before := 0
	for i := q + 1; i < child; i++ {
		if o.forms[i].parent == q {
			before++
		}
	}
	return before >= need
}

func filterItems(items []completionItem, prefix string) []completionItem {
	p := strings.ToLower(prefix)
	out := items[:0]
	for _, it := range items {
		if strings.Contains(strings.ToLower(it.Label), p) {
			out = append(out, it)
		}
	}
	// Those starting with the prefix first, the rest in their order.
	slices.SortStableFunc(out, func(a, b completionItem) int {
		pa, pb := strings.HasPrefix(strings.ToLower(a.Label), p), strings.HasPrefix(strings.ToLower(b.Label), p)
		switch {
		case pa && !pb:
			return -1
		case pb && !pa:
			return 1
		}
		return 0
	})
	return out
}

func sectionItems(lib bool) []completionItem {
	keys := []string{":domain", ":objects", ":init", ":goal"}
	if lib {
		keys = []string{":domain", ":language", ":regions", ":fixtures", ":objects", ":obj_of_interest", ":init", ":goal"}
	}
	items := []completionItem{{Label: "problem", Kind: kindKeyword, Detail: "(problem NAME)"}}
	for _, k := range keys {
		items = append(items, completionItem{Label: k, Kind: kindKeyword, Detail: sectionDocs[k]})
	}
	return items
}

// predicateItems: the predicates of the file's domain with their arity,
// and in :goal the connectives and quantifiers (in :init, not).
func (s *server) predicateItems(o *outline, lib, goal bool) []completionItem {
	var items []completionItem
	if lib {
		for _, p := range libero.Predicates() {
			detail := fmt.Sprintf("%d argument%s", p.Arity, plural(p.Arity))
			if p.Arity < 0 {
				detail = "any arguments"
			}
			items = append(items, completionItem{Label: liberoSpelling(p.Name), Kind: kindFunction, Detail: detail,
				Documentation: &markupContent{Kind: "markdown", Value: liberoPredicateDocs[p.Name]}})
		}
	} else {
		domName := o.domainName()
		dom, ok := kb.ParseDomain(domName)
		if !ok {
			dom = kb.DomainOmniGibson
		}
		decl, _ := bddl.EmbeddedDomain(strings.ToLower(domName))
		if decl == nil {
			decl, _ = bddl.EmbeddedDomain("omnigibson")
		}
		for _, p := range kb.Predicates(dom) {
			sig := make([]string, len(p.Args))
			for i, a := range p.Args {
				sig[i] = a.Need.String()
				if a.Kind == kb.ArgRoom {
					sig[i] = "room"
				}
			}
			detail := fmt.Sprintf("%d argument%s: %s", p.Arity(), plural(p.Arity()), strings.Join(sig, ", "))
			if decl != nil {
				if d, ok := decl.Predicate(p.Name); ok {
					params := make([]string, len(d.Params))
					for i, prm := range d.Params {
						params[i] = "?" + prm.Name
					}
					detail = fmt.Sprintf("(%s %s) — %s", p.Name, strings.Join(params, " "), detail)
				}
			}
			items = append(items, completionItem{Label: p.Name, Kind: kindFunction, Detail: detail})
		}
	}
	conns := []string{"not"}
	if goal {
		conns = []string{"and", "or", "not", "imply", "forall", "exists", "forn", "forpairs", "fornpairs"}
	}
	for _, k := range conns {
		items = append(items, completionItem{Label: k, Kind: kindKeyword, Detail: connectiveDocs[k]})
	}
	return items
}

// liberoSpelling is how LIBERO's definitions write a predicate: On, In,
// Open, Turnon.
func liberoSpelling(name string) string {
	if name == "printjointstate" {
		return "PrintJointState"
	}
	return strings.ToUpper(name[:1]) + name[1:]
}

// instanceItems: the declared instances (and fixtures), those keep
// accepts.
func instanceItems(o *outline, keep func(*name) bool) []completionItem {
	var items []completionItem
	seen := map[string]bool{}
	for i := range o.names {
		n := &o.names[i]
		if n.role != roleDecl || seen[n.key()] || keep != nil && !keep(n) {
			continue
		}
		seen[n.key()] = true
		items = append(items, completionItem{Label: n.text, Kind: kindVariable, Detail: o.typeOf(i)})
	}
	return items
}

// argumentItems: at argument arg of an atom, the declared instances of a
// type the predicate accepts there, the variables in scope, and for a
// room argument the room types.
func (s *server) argumentItems(doc *document, o *outline, c completionSite, lib bool) []completionItem {
	question := strings.HasPrefix(c.prefix, "?")
	var items []completionItem
	// Variables bound around the cursor.
	seen := map[string]bool{}
	for fi := c.form; fi >= 0; fi = o.forms[fi].parent {
		for _, v := range o.forms[fi].vars {
			if k := o.names[v].key(); !seen[k] {
				seen[k] = true
				items = append(items, completionItem{Label: "?" + o.names[v].key(), Kind: kindVariable, Detail: o.typeOf(v)})
			}
		}
	}
	if lib {
		if p, ok := libero.LookupPredicate(c.predicate); ok && p.Arity >= 0 && c.arg >= p.Arity {
			return nil
		}
		items = append(items, instanceItems(o, nil)...)
		if c.arg == 1 {
			refs := make([]string, 0, len(o.regions()))
			for ref := range o.regions() {
				refs = append(refs, ref)
			}
			slices.Sort(refs)
			for _, ref := range refs {
				items = append(items, completionItem{Label: ref, Kind: kindConstant, Detail: "region"})
			}
		}
		return items
	}
	domName := o.domainName()
	dom, ok := kb.ParseDomain(domName)
	if !ok {
		dom = kb.DomainOmniGibson
	}
	spec, known := kb.LookupPredicate(dom, c.predicate)
	if known && c.arg >= len(spec.Args) {
		return nil // the atom has its arguments
	}
	if known && spec.Args[c.arg].Kind == kb.ArgRoom {
		for _, r := range s.base(doc).RoomTypes() {
			items = append(items, completionItem{Label: r, Kind: kindConstant, Detail: "room type"})
		}
		return items
	}
	base := s.base(doc)
	accepts := func(n *name) bool {
		if !known {
			return true
		}
		id, ok := base.Lookup(strings.ToLower(kb.SynsetOfTerm(n.key())))
		if !ok {
			id, ok = base.Lookup(strings.ToLower(o.typeOf(n.index(o))))
		}
		return !ok || meets(base, id, spec.Args[c.arg].Need)
	}
	for _, it := range instanceItems(o, accepts) {
		if question {
			it.Label = "?" + it.Label
		}
		items = append(items, it)
	}
	return items
}

// index is the name's index in o.names.
func (n *name) index(o *outline) int {
	i, _ := slices.BinarySearchFunc(o.names, n.start, func(m name, start int) int { return m.start - start })
	return i
}

// meets reports whether synset id has what need asks.
func meets(b *kb.Base, id kb.SynsetID, need kb.Requirement) bool {
	if !b.HasAll(id, need.AllOf...) {
		return false
	}
	if len(need.AnyOf) == 0 {
		return true
	}
	for _, p := range need.AnyOf {
		if b.Has(id, p) {
			return true
		}
	}
	return false
}

// typeItems: at a type position, the types declared in the file first,
// then the synsets of the knowledge base (LIBERO: the categories) that
// start with the prefix, then those that hold it.
func (s *server) typeItems(doc *document, o *outline, prefix string, lib bool) ([]completionItem, bool) {
	p := strings.ToLower(prefix)
	var items []completionItem
	seen := map[string]bool{}
	for i := range o.names {
		if n := &o.names[i]; n.role == roleType && strings.Contains(n.key(), p) && n.key() != p && !seen[n.key()] {
			seen[n.key()] = true
			items = append(items, completionItem{Label: n.key(), Kind: kindClass, Detail: "declared in this file"})
		}
	}
	var starts, holds []string
	add := func(name string) {
		if seen[name] {
			return
		}
		switch {
		case strings.HasPrefix(name, p):
			starts = append(starts, name)
		case strings.Contains(name, p):
			holds = append(holds, name)
		}
	}
	if lib {
		for _, c := range libero.Categories() {
			add(c.Name)
		}
	} else {
		b := s.base(doc)
		for id := range b.NumSynsets() {
			add(b.Name(kb.SynsetID(id)))
		}
	}
	byLength := func(a, b string) int {
		if len(a) != len(b) {
			return len(a) - len(b)
		}
		return strings.Compare(a, b)
	}
	slices.SortFunc(starts, byLength)
	slices.SortFunc(holds, byLength)
	complete := true
	for _, name := range append(starts, holds...) {
		if len(items) == maxCompletions {
			complete = false
			break
		}
		items = append(items, completionItem{Label: name, Kind: kindClass})
	}
	return items, complete
}
