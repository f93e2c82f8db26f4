package lsp

import "strings"

// The outline is what the language features know of a file: every name
// with its role (a declaration, a predicate, an argument, a type, ...) and
// every parenthesised form, found by one pass of a scanner that accepts
// any text. It does not need the file to parse, so a half-typed definition
// still has its names; a parenthesis missing only shifts what the forms
// after it contain, never what came before the cursor.

type role uint8

const (
	roleOther      role = iota
	roleHeader          // define, problem, domain and the problem's name
	roleSection         // a section keyword: :objects, :init, ...
	roleDecl            // an instance declared in :objects, a fixture in :fixtures
	roleDash            // the '-' before a type
	roleType            // a type: after '-' in :objects, :fixtures and variable declarations
	rolePredicate       // the head of an atom
	roleConnective      // and, or, not, imply and the quantifiers
	roleArg             // an argument of an atom
	roleVarDecl         // ?x in a quantifier's (?x - type)
	roleRegion          // a region's name in :regions
	roleAttr            // a region attribute keyword: :target, :ranges, ...
	roleTarget          // the value of a region's :target
	roleRef             // a name in :obj_of_interest
	roleNumber          // a number (counts, ranges)
	roleDomain          // the name in (:domain NAME)
)

// name is one name token.
type name struct {
	start, end int
	text       string
	role       role
	section    string // the folded keyword of the section it is in, "" outside
	form       int    // its innermost form, -1 at top level
	arg        int    // for roleArg, its position among the atom's arguments
}

// key is the name as BDDL compares it: folded, without a leading '?'.
func (n *name) key() string { return strings.ToLower(strings.TrimPrefix(n.text, "?")) }

// form is one parenthesised form.
type form struct {
	open, close int // offsets of '(' and its ')'; close is -1 when unclosed
	parent      int // -1 at top level
	depth       int
	head        int // index of its first name when the form starts with one, else -1
	nargs       int // names after the head
	section     string
	kind        formKind
	vars        []int // for a quantifier: the variables it declares
}

type formKind uint8

const (
	formPlain formKind = iota
	formSection
	formAtom
	formConnective
	formQuantifier
	formVarDecl // (?x - type) under a quantifier
	formCount   // (N) under forn
	formRegion  // an entry of :regions
	formAttr    // (:target X) and the like in a region
)

type outline struct {
	text      string
	names     []name
	forms     []form
	comments  [][2]int // [start, end) of each comment
	declMap   map[string][]int
	regionMap map[string]int
}

var connectives = map[string]bool{
	"and": true, "or": true, "not": true, "imply": true,
	"forall": true, "exists": true, "forn": true, "forpairs": true, "fornpairs": true,
}

var quantifiers = map[string]bool{"forall": true, "exists": true, "forn": true, "forpairs": true, "fornpairs": true}

// maxDepth bounds the form stack: deeper forms are read as flat text, so
// a file of a million '(' costs no more than its length.
const maxDepth = 256

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

// scan builds the outline of text.
func scan(text string) *outline {
	// About one name per 12 bytes and one form per 40 in definitions.
	o := &outline{text: text, names: make([]name, 0, len(text)/12+1), forms: make([]form, 0, len(text)/40+1)}
	var stack []int
	// Per open form: whether the next name of an :objects-like list is a
	// type (it follows '-').
	afterDash := map[int]bool{}
	top := func() int {
		if len(stack) == 0 {
			return -1
		}
		return stack[len(stack)-1]
	}
	for i := 0; i < len(text); {
		c := text[i]
		switch {
		case isSpace(c):
			i++
		case c == ';':
			j := strings.IndexByte(text[i:], '\n')
			if j < 0 {
				j = len(text) - i
			}
			o.comments = append(o.comments, [2]int{i, i + j})
			i += j
		case c == '(':
			if len(stack) >= maxDepth {
				i++
				continue
			}
			f := form{open: i, close: -1, parent: top(), depth: len(stack), head: -1}
			if f.parent >= 0 {
				f.section = o.forms[f.parent].section
			}
			o.forms = append(o.forms, f)
			stack = append(stack, len(o.forms)-1)
			i++
		case c == ')':
			if len(stack) > 0 {
				o.forms[top()].close = i
				stack = stack[:len(stack)-1]
			}
			i++
		default:
			j := i
			for j < len(text) && !isSpace(text[j]) && text[j] != '(' && text[j] != ')' && text[j] != ';' {
				j++
			}
			o.addName(i, j, top(), afterDash)
			i = j
		}
	}
	// Built once here: the outline is read by concurrent requests.
	o.declMap, o.regionMap = o.scanDecls(), o.scanRegions()
	return o
}

// addName classifies the name text[start:end] in form fi.
func (o *outline) addName(start, end, fi int, afterDash map[int]bool) {
	n := name{start: start, end: end, text: o.text[start:end], form: fi, arg: -1}
	key := strings.ToLower(n.text)
	if fi < 0 {
		o.names = append(o.names, n)
		return
	}
	f := &o.forms[fi]
	n.section = f.section
	// The head is the form's first element, when that is a name.
	isHead := f.head < 0 && f.nargs == 0 && fi == len(o.forms)-1
	if isHead {
		f.head = len(o.names)
		o.classifyForm(fi, key)
		n.section = f.section
	} else {
		f.nargs++
	}
	var parent *form
	if f.parent >= 0 {
		parent = &o.forms[f.parent]
	}
	switch {
	case f.kind == formSection && isHead:
		n.role = roleSection
	case f.depth == 0 && isHead, parent != nil && parent.depth == 0 && f.kind == formPlain:
		n.role = roleHeader
	case f.kind == formSection:
		switch f.section {
		case ":objects", ":fixtures":
			switch {
			case n.text == "-":
				n.role = roleDash
				afterDash[fi] = true
			case afterDash[fi]:
				n.role = roleType
				afterDash[fi] = false
			default:
				n.role = roleDecl
			}
		case ":obj_of_interest":
			n.role = roleRef
		case ":domain":
			n.role = roleDomain
		}
	case f.kind == formVarDecl:
		switch {
		case n.text == "-":
			n.role = roleDash
			afterDash[fi] = true
		case afterDash[fi]:
			n.role = roleType
			afterDash[fi] = false
		default:
			n.role = roleVarDecl
			if parent != nil {
				parent.vars = append(parent.vars, len(o.names))
			}
		}
	case f.kind == formCount:
		n.role = roleNumber
	case f.kind == formRegion && isHead:
		n.role = roleRegion
	case f.kind == formAttr:
		if isHead {
			n.role = roleAttr
		} else if strings.EqualFold(o.names[f.head].text, ":target") {
			n.role = roleTarget
		} else if isNumber(n.text) {
			n.role = roleNumber
		}
	case (f.kind == formConnective || f.kind == formQuantifier) && isHead:
		n.role = roleConnective
	case f.kind == formAtom:
		if isHead {
			n.role = rolePredicate
		} else {
			n.role = roleArg
			n.arg = f.nargs - 1
		}
	case isNumber(n.text):
		n.role = roleNumber
	}
	o.names = append(o.names, n)
}

// classifyForm sets the kind of form fi from its head (folded) and its
// place.
func (o *outline) classifyForm(fi int, head string) {
	f := &o.forms[fi]
	var parent *form
	if f.parent >= 0 {
		parent = &o.forms[f.parent]
	}
	switch {
	case f.depth == 1 && strings.HasPrefix(head, ":"):
		f.kind, f.section = formSection, head
	case parent != nil && parent.kind == formQuantifier && strings.HasPrefix(head, "?"):
		f.kind = formVarDecl
	case parent != nil && parent.kind == formQuantifier && isNumber(head):
		f.kind = formCount
	case f.section == ":regions" && f.depth == 2:
		f.kind = formRegion
	case f.section == ":regions" && f.depth == 3 && strings.HasPrefix(head, ":"):
		f.kind = formAttr
	case (f.section == ":init" || f.section == ":goal") && f.depth >= 2:
		switch {
		case quantifiers[head]:
			f.kind = formQuantifier
		case connectives[head]:
			f.kind = formConnective
		default:
			f.kind = formAtom
		}
	}
}

func isNumber(s string) bool {
	if s == "" {
		return false
	}
	digits := false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9':
			digits = true
		case c == '.' || c == '-' || c == '+' || c == 'e' || c == 'E':
		default:
			return false
		}
	}
	return digits
}

// nameAt returns the index of the name whose text holds off (its end
// included, so a cursor just after a name is on it), or -1.
func (o *outline) nameAt(off int) int {
	lo, hi := 0, len(o.names)
	for lo < hi {
		m := (lo + hi) / 2
		if o.names[m].end < off {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(o.names) && o.names[lo].start <= off && off <= o.names[lo].end {
		return lo
	}
	return -1
}

// formAt is the innermost form open at off: opened before it and not
// closed before it.
func (o *outline) formAt(off int) int {
	best := -1
	for i := range o.forms {
		f := &o.forms[i]
		if f.open >= off {
			break
		}
		if f.close < 0 || f.close >= off {
			best = i
		}
	}
	return best
}

// inComment reports whether off is inside a comment.
func (o *outline) inComment(off int) bool {
	for _, c := range o.comments {
		if c[0] < off && off <= c[1] {
			return true
		}
	}
	return false
}

// variable returns the declaration (a roleVarDecl name) of the variable
// that name ni refers to, looking out through the quantifiers around it,
// or -1.
func (o *outline) variable(ni int) int {
	n := &o.names[ni]
	if !strings.HasPrefix(n.text, "?") {
		return -1
	}
	if n.role == roleVarDecl {
		return ni
	}
	k := n.key()
	for fi := n.form; fi >= 0; fi = o.forms[fi].parent {
		for _, v := range o.forms[fi].vars {
			if o.names[v].key() == k {
				return v
			}
		}
	}
	return -1
}

// decls maps the key of every declared instance and fixture to its
// declaration names, in source order.
func (o *outline) decls() map[string][]int { return o.declMap }

func (o *outline) scanDecls() map[string][]int {
	m := map[string][]int{}
	for i := range o.names {
		if o.names[i].role == roleDecl {
			k := o.names[i].key()
			m[k] = append(m[k], i)
		}
	}
	return m
}

// typeOf is the type written after the declaration name di ("" if none).
func (o *outline) typeOf(di int) string {
	for i := di + 1; i < len(o.names) && o.names[i].form == o.names[di].form; i++ {
		switch o.names[i].role {
		case roleType:
			return o.names[i].text
		case roleDecl, roleDash:
			continue
		}
		break
	}
	return ""
}

// regions maps each LIBERO region's reference (TARGET_NAME, folded) to its
// name in :regions.
func (o *outline) regions() map[string]int { return o.regionMap }

func (o *outline) scanRegions() map[string]int {
	m := map[string]int{}
	for i := range o.names {
		if o.names[i].role != roleRegion {
			continue
		}
		region := o.names[i].form
		for j := i + 1; j < len(o.names); j++ {
			t := &o.names[j]
			if !o.within(t.form, region) {
				break
			}
			if t.role == roleTarget {
				m[t.key()+"_"+o.names[i].key()] = i
				break
			}
		}
	}
	return m
}

// within reports whether form fi is form anc or inside it.
func (o *outline) within(fi, anc int) bool {
	for ; fi >= 0; fi = o.forms[fi].parent {
		if fi == anc {
			return true
		}
	}
	return false
}

// formEnd is the offset just after form fi's ')', or the end of the text.
func (o *outline) formEnd(fi int) int {
	if c := o.forms[fi].close; c >= 0 {
		return c + 1
	}
	return len(o.text)
}

// sectionForm is the form of the section with the folded keyword key, or -1.
func (o *outline) sectionForm(key string) int {
	for i := range o.forms {
		if o.forms[i].kind == formSection && o.forms[i].section == key {
			return i
		}
	}
	return -1
}

// domainName is the name in (:domain NAME), or "".
func (o *outline) domainName() string {
	for i := range o.names {
		if o.names[i].role == roleDomain {
			return o.names[i].text
		}
	}
	return ""
}
