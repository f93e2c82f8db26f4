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
	"github.com/openbddl/bddl/predicates"
)

// maxListed bounds the items of one list in a hover.
const maxListed = 8

func (s *server) hover(_ context.Context, doc *document, params json.RawMessage) (any, error) {
	o, ni, err := at(doc, params)
	if err != nil || ni < 0 {
		return nil, err
	}
	text := s.hoverText(doc, o, ni)
	if text == "" {
		return nil, nil
	}
	n := &o.names[ni]
	r := doc.rangeOf(n.start, n.end)
	return hover{Contents: markupContent{Kind: "markdown", Value: text}, Range: &r}, nil
}

// hoverText is the Markdown shown for name ni, "" for nothing.
func (s *server) hoverText(doc *document, o *outline, ni int) string {
	n := &o.names[ni]
	lib := s.isLibero(doc)
	switch n.role {
	case roleSection:
		if d := sectionDocs[n.key()]; d != "" {
			return "**" + n.text + "** — " + d
		}
	case roleConnective:
		if d := connectiveDocs[n.key()]; d != "" {
			return "**" + n.key() + "** — " + d
		}
	case rolePredicate:
		if lib {
			return liberoPredicateHover(n.key())
		}
		return predicateHover(o, n.key())
	case roleType:
		if lib {
			return categoryHover(n.key())
		}
		return synsetHover(s.base(doc), n.key())
	case roleAttr:
		if d := regionAttrDocs[n.key()]; d != "" {
			return "**" + n.text + "** — " + d
		}
	}
	t := o.resolve(ni)
	switch t.kind {
	case targetInstance:
		if t.decl < 0 {
			return s.constantHover(doc, o, n)
		}
		return s.instanceHover(doc, o, t, lib)
	case targetVariable:
		return variableHover(doc, o, t)
	case targetRegion:
		return regionHover(doc, o, t)
	}
	return ""
}

// instanceHover: the declaration, what the knowledge base says of its
// type in a line, and the literals that mention it.
func (s *server) instanceHover(doc *document, o *outline, t target, lib bool) string {
	d := &o.names[t.decl]
	typ := o.typeOf(t.decl)
	var b strings.Builder
	what := "instance"
	if d.section == ":fixtures" {
		what = "fixture"
	}
	fmt.Fprintf(&b, "**%s** — %s of `%s`, declared on line %d\n\n", d.text, what, typ, doc.position(d.start).Line+1)
	if d.form >= 0 {
		b.WriteString("```bddl\n" + declLine(o, t.decl) + "\n```\n")
	}
	if typ != "" {
		if lib {
			if c, ok := libero.LookupCategory(typ); ok {
				fmt.Fprintf(&b, "\n`%s`: LIBERO category (%s, model %s)\n", c.Name, c.Class, c.Model)
			}
		} else if base := s.base(doc); base != nil {
			if id, ok := base.Lookup(strings.ToLower(typ)); ok {
				fmt.Fprintf(&b, "\n`%s`: %s\n", base.Name(id), synsetKind(base, id))
			}
		}
	}
	var lits []string
	seen := map[int]bool{}
	for _, r := range o.references(t) {
		n := &o.names[r]
		if n.role != roleArg || n.form < 0 || seen[n.form] {
			continue
		}
		seen[n.form] = true
		fi := n.form
		// A negated literal is shown with its not.
		if p := o.forms[fi].parent; p >= 0 && o.forms[p].kind == formConnective && o.forms[p].head >= 0 && o.names[o.forms[p].head].key() == "not" {
			fi = p
		}
		lits = append(lits, fmt.Sprintf("%s %d: `%s`", n.section, doc.position(n.start).Line+1, compact(o.text[o.forms[fi].open:o.formEnd(fi)], 100)))
	}
	if len(lits) > 0 {
		b.WriteString("\nMentioned by:\n")
		for i, l := range lits {
			if i == 2*maxListed {
				fmt.Fprintf(&b, "- … %d more\n", len(lits)-i)
				break
			}
			b.WriteString("- " + l + "\n")
		}
	} else {
		b.WriteString("\nMentioned by no literal.\n")
	}
	return b.String()
}

// declLine is the declaration line that declares name di, compacted.
func declLine(o *outline, di int) string {
	d := &o.names[di]
	start, end := d.start, d.end
	for i := di - 1; i >= 0 && o.names[i].form == d.form && o.names[i].role == roleDecl; i-- {
		start = o.names[i].start
	}
	for i := di + 1; i < len(o.names) && o.names[i].form == d.form; i++ {
		end = o.names[i].end
		if o.names[i].role == roleType {
			break
		}
	}
	return compact(o.text[start:end], 200)
}

func variableHover(doc *document, o *outline, t target) string {
	d := &o.names[t.decl]
	typ := o.typeOf(t.decl)
	q := o.forms[d.form].parent
	quant := "a quantifier"
	if q >= 0 && o.forms[q].head >= 0 {
		quant = o.names[o.forms[q].head].key()
	}
	return fmt.Sprintf("**%s** — variable of type `%s`, bound by %s on line %d", d.text, typ, quant, doc.position(d.start).Line+1)
}

func regionHover(doc *document, o *outline, t target) string {
	d := &o.names[t.decl]
	var b strings.Builder
	fmt.Fprintf(&b, "**%s** — LIBERO region, referred to as `%s`, declared on line %d\n\n", d.text, t.key, doc.position(d.start).Line+1)
	text := o.text[o.forms[d.form].open:o.formEnd(d.form)]
	if lines := strings.Split(text, "\n"); len(lines) > 20 {
		text = strings.Join(lines[:20], "\n") + "\n…"
	}
	b.WriteString("```bddl\n" + dedent(text) + "\n```")
	return b.String()
}

// dedent removes the indentation the lines after the first share with
// the first's column, so a region reads as written.
func dedent(s string) string {
	lines := strings.Split(s, "\n")
	common := -1
	for _, l := range lines[1:] {
		if strings.TrimSpace(l) == "" {
			continue
		}
		n := len(l) - len(strings.TrimLeft(l, " \t"))
		if common < 0 || n < common {
			common = n
		}
	}
	for i := 1; i < len(lines) && common > 0; i++ {
		if len(lines[i]) >= common {
			lines[i] = lines[i][common:]
		}
	}
	return strings.Join(lines, "\n")
}

// constantHover explains a name nothing declares: a room type, a
// variable no quantifier binds, an instance not declared.
func (s *server) constantHover(doc *document, o *outline, n *name) string {
	if strings.HasPrefix(n.text, "?") && !bddl.IsInstanceName(n.key()) {
		return fmt.Sprintf("**%s** — no quantifier around it binds this variable", n.text)
	}
	if !s.isLibero(doc) && n.role == roleArg {
		if base := s.base(doc); base.IsRoomType(n.key()) {
			return fmt.Sprintf("**%s** — room type of the knowledge base", n.text)
		}
	}
	if n.role == roleArg && n.section != "" {
		return fmt.Sprintf("**%s** — not declared in :objects", n.text)
	}
	return ""
}

// synsetHover is what `bddl kb show` says of a synset, shortened.
func synsetHover(b *kb.Base, key string) string {
	id, ok := b.Lookup(key)
	if !ok {
		msg := fmt.Sprintf("**%s** — not a synset of the knowledge base", key)
		if s := b.Suggest(key); len(s) > 0 {
			msg += "; did you mean " + strings.Join(s, ", ") + "?"
		}
		return msg
	}
	var w strings.Builder
	fmt.Fprintf(&w, "**%s** — %s\n\n", b.Name(id), synsetKind(b, id))
	fmt.Fprintf(&w, "- parents: %s\n", listed(b.Names(b.Parents(id))))
	fmt.Fprintf(&w, "- ancestors: %s\n", listed(b.Names(b.Ancestors(id))))
	children := b.Names(b.Children(id))
	slices.Sort(children)
	fmt.Fprintf(&w, "- children: %s\n", listed(children))
	var own, inherited, params []string
	for _, p := range b.Properties(id) {
		if p.Inherited {
			inherited = append(inherited, p.Name)
		} else {
			own = append(own, p.Name)
		}
		for _, prm := range p.Params {
			params = append(params, fmt.Sprintf("%s.%s = %s", p.Name, prm.Name, prm.Value))
		}
	}
	fmt.Fprintf(&w, "- properties: %s", strings.Join(own, ", "))
	if len(inherited) > 0 {
		fmt.Fprintf(&w, "; inherited: %s", strings.Join(inherited, ", "))
	}
	w.WriteString("\n")
	if len(params) > 0 {
		fmt.Fprintf(&w, "- parameters: %s\n", listed(params))
	}
	t := b.Thresholds(id)
	fmt.Fprintf(&w, "- thresholds: cook %g, burn %g, hot %g, frozen %g, ignition %g, melt %g (°C)\n",
		t.Cook, t.Burn, t.Heat, t.Freeze, t.Ignition, t.Melt)
	for _, g := range []struct {
		label string
		rules []kb.Rule
	}{{"consumed by", b.RulesConsuming(id)}, {"produced by", b.RulesProducing(id)}, {"needed by", b.RulesUsing(id)}} {
		if len(g.rules) == 0 {
			continue
		}
		fmt.Fprintf(&w, "- %s %d transition rule%s:\n", g.label, len(g.rules), plural(len(g.rules)))
		for i, r := range g.rules {
			if i == maxListed/2 {
				fmt.Fprintf(&w, "  - … %d more (`bddl kb show %s`)\n", len(g.rules)-i, b.Name(id))
				break
			}
			fmt.Fprintf(&w, "  - %s\n", r.Describe())
		}
	}
	return w.String()
}

func synsetKind(b *kb.Base, id kb.SynsetID) string {
	var kind []string
	if b.IsCustom(id) {
		kind = append(kind, "custom synset")
	} else {
		kind = append(kind, "WordNet synset")
	}
	if b.IsLeaf(id) {
		kind = append(kind, "leaf")
	} else {
		kind = append(kind, fmt.Sprintf("%d leaf descendants", len(b.LeafDescendants(id))))
	}
	if t := b.ObjectType(id); t != "" {
		kind = append(kind, t)
	}
	return strings.Join(kind, ", ")
}

func listed(xs []string) string {
	if len(xs) == 0 {
		return "(none)"
	}
	if len(xs) > maxListed {
		return strings.Join(xs[:maxListed], ", ") + fmt.Sprintf(", … %d more", len(xs)-maxListed)
	}
	return strings.Join(xs, ", ")
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// predicateHover: the predicate's signature in the file's domain, what
// each argument must be, what it means and how the engine decides it.
func predicateHover(o *outline, key string) string {
	domName := o.domainName()
	if domName == "" {
		domName = "omnigibson"
	}
	dom, ok := kb.ParseDomain(domName)
	if !ok {
		dom = kb.DomainOmniGibson
	}
	spec, known := kb.LookupPredicate(dom, key)
	params := []string{}
	if d, ok := bddl.EmbeddedDomain(strings.ToLower(domName)); ok {
		if p, ok := d.Predicate(key); ok {
			for _, prm := range p.Params {
				params = append(params, "?"+prm.Name)
			}
		}
	}
	if !known && len(params) == 0 {
		return fmt.Sprintf("**%s** — not a predicate of domain %s", key, domName)
	}
	if len(params) == 0 {
		for i := range spec.Args {
			params = append(params, fmt.Sprintf("?x%d", i+1))
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "```bddl\n(%s %s)\n```\n", key, strings.Join(params, " "))
	fmt.Fprintf(&b, "%d argument%s, domain %s", len(params), plural(len(params)), domName)
	args := make([]bddl.Term, len(params))
	for i, p := range params {
		args[i] = bddl.Term{Name: strings.TrimPrefix(p, "?"), Question: true, Kind: bddl.VariableTerm}
	}
	if m := bddl.Explain(&bddl.Atom{Pred: bddl.Ident{Name: key}, Args: args}); m != "" && !strings.HasPrefix(m, "(") {
		fmt.Fprintf(&b, ": %s", m)
	}
	b.WriteString("\n\n")
	if known {
		for i, a := range spec.Args {
			p := fmt.Sprintf("argument %d", i+1)
			if i < len(params) {
				p = params[i]
			}
			need := a.Need.String()
			if a.Kind == kb.ArgRoom {
				need = "a room type (kitchen, bathroom, …)"
			}
			fmt.Fprintf(&b, "- `%s`: %s\n", p, need)
		}
		for _, c := range spec.When {
			fmt.Fprintf(&b, "- when argument %d is %s, argument %d must be %s\n", c.If+1, c.IfHas, c.Arg+1, c.Need)
		}
		if spec.Attachable {
			b.WriteString("- the pair must be able to attach (the models' attachment links)\n")
		}
		if spec.Note != "" {
			fmt.Fprintf(&b, "\nNote: %s\n", spec.Note)
		}
	}
	for _, p := range predicates.Predicates() {
		if p.Name == key && p.Rule != "" {
			fmt.Fprintf(&b, "\nDecided by: %s\n", p.Rule)
			break
		}
	}
	return b.String()
}

func liberoPredicateHover(key string) string {
	p, ok := libero.LookupPredicate(key)
	if !ok {
		return fmt.Sprintf("**%s** — not a LIBERO predicate (LIBERO has %s)", key, liberoPredicateNames())
	}
	arity := fmt.Sprintf("%d argument%s", p.Arity, plural(p.Arity))
	if p.Arity < 0 {
		arity = "any arguments"
	}
	return fmt.Sprintf("**%s** — LIBERO predicate, %s: %s", p.Name, arity, liberoPredicateDocs[p.Name])
}

func liberoPredicateNames() string {
	var names []string
	for _, p := range libero.Predicates() {
		names = append(names, p.Name)
	}
	return strings.Join(names, ", ")
}

func categoryHover(key string) string {
	c, ok := libero.LookupCategory(key)
	if !ok {
		if _, ok := libero.Class(key); ok {
			return fmt.Sprintf("**%s** — LIBERO problem class", key)
		}
		return fmt.Sprintf("**%s** — not an object category LIBERO registers", key)
	}
	var sites []string
	for _, s := range c.Sites {
		sites = append(sites, s.Name)
	}
	msg := fmt.Sprintf("**%s** — LIBERO category, class %s, model %s (%s)", c.Name, c.Class, c.Model, c.Source)
	if c.Joint != nil {
		msg += "; articulated"
	}
	if len(sites) > 0 {
		msg += "\n\n- sites: " + listed(sites)
	}
	return msg
}

// The words of sections, connectives and LIBERO's additions.
var sectionDocs = map[string]string{
	":domain":          "the predicates the problem may use (omnigibson for BEHAVIOR-1K, robosuite for LIBERO)",
	":objects":         "the object instances, each line `instance… - type`",
	":init":            "the ground literals that hold in the initial scene",
	":goal":            "the formula that holds when the task is done",
	":language":        "LIBERO: the instruction given to the robot",
	":regions":         "LIBERO: named regions of a fixture, placed by ranges or a site of its model",
	":fixtures":        "LIBERO: the furniture the scene loads, each line `fixture… - category`",
	":obj_of_interest": "LIBERO: the objects and fixtures the task is about",
	":requirements":    "the PDDL features the domain uses",
	":predicates":      "the predicates the domain declares",
}

var connectiveDocs = map[string]string{
	"and":       "holds when every operand holds",
	"or":        "holds when some operand holds",
	"not":       "holds when its operand does not",
	"imply":     "(imply A B) holds when A does not, or B does",
	"forall":    "(forall (?x - type) body): body holds for every instance of the type",
	"exists":    "(exists (?x - type) body): body holds for some instance of the type",
	"forn":      "(forn (N) (?x - type) body): body holds for exactly N instances of the type",
	"forpairs":  "(forpairs (?x - t) (?y - u) body): every x pairs with a distinct y for which body holds",
	"fornpairs": "(fornpairs (N) (?x - t) (?y - u) body): N disjoint pairs for which body holds",
}

var regionAttrDocs = map[string]string{
	":target":       "the fixture or object the region belongs to; the region is referred to as TARGET_NAME",
	":ranges":       "rectangles (x0 y0 x1 y1) in the target's frame where objects are placed",
	":yaw_rotation": "the range of rotation about z objects are placed with (LIBERO keeps the last)",
	":rgba":         "the colour the region is drawn in",
}

// liberoPredicateDocs: LIBERO's envs/predicates (base_predicates.py).
var liberoPredicateDocs = map[string]string{
	"true":            "always holds",
	"false":           "never holds",
	"in":              "the first object is inside the second (a region, a site of a fixture, or a container)",
	"on":              "the first object stands on the second (a region, a site or an object), in contact",
	"up":              "the object's height z is at least 1.0 m (base_predicates.py:79-81)",
	"printjointstate": "prints the object's joint state; always holds",
	"open":            "the articulated object's joint is past its open threshold",
	"close":           "the articulated object's joint is past its closed threshold",
	"turnon":          "the object's switch joint is past its on threshold",
	"turnoff":         "the object's switch joint is past its off threshold",
}
