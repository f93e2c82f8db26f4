package lsp

import (
	"context"
	"encoding/json"
	"strings"
)

// What a name under the cursor refers to.
type targetKind uint8

const (
	targetNone      targetKind = iota
	targetInstance             // an object or fixture (declared or not)
	targetVariable             // a quantified variable
	targetRegion               // a LIBERO region
	targetPredicate            // a predicate, by name
	targetType                 // a synset or category, by name
)

type target struct {
	kind targetKind
	key  string // folded, without '?': the instance, the region's reference, ...
	decl int    // the declaring name, -1 if none
}

// resolve says what name ni refers to.
func (o *outline) resolve(ni int) target {
	n := &o.names[ni]
	switch n.role {
	case roleDecl:
		return target{targetInstance, n.key(), o.decls()[n.key()][0]}
	case roleVarDecl:
		return target{targetVariable, n.key(), ni}
	case roleRegion:
		for ref, ri := range o.regions() {
			if ri == ni {
				return target{targetRegion, ref, ni}
			}
		}
		return target{targetNone, "", -1}
	case rolePredicate:
		return target{targetPredicate, n.key(), -1}
	case roleType:
		return target{targetType, n.key(), -1}
	case roleArg, roleRef, roleTarget:
		if v := o.variable(ni); v >= 0 {
			return target{targetVariable, n.key(), v}
		}
		if ds := o.decls()[n.key()]; len(ds) > 0 {
			return target{targetInstance, n.key(), ds[0]}
		}
		if ri, ok := o.regions()[n.key()]; ok {
			return target{targetRegion, n.key(), ri}
		}
		// A name no declaration explains no declaration explains: an instance not declared,
		// or a constant such as a room type.
		return target{targetInstance, n.key(), -1}
	}
	return target{targetNone, "", -1}
}

// references lists the names that refer to t, in source order.
func (o *outline) references(t target) []int {
	var out []int
	for i := range o.names {
		n := &o.names[i]
		switch t.kind {
		case targetInstance:
			switch n.role {
			case roleDecl, roleArg, roleRef, roleTarget:
				if n.key() == t.key && o.variable(i) < 0 {
					out = append(out, i)
				}
			}
		case targetVariable:
			if (n.role == roleArg || n.role == roleVarDecl) && n.key() == t.key && o.variable(i) == t.decl {
				out = append(out, i)
			}
		case targetRegion:
			if i == t.decl || (n.role == roleArg || n.role == roleRef) && n.key() == t.key {
				out = append(out, i)
			}
		case targetPredicate:
			if n.role == rolePredicate && n.key() == t.key {
				out = append(out, i)
			}
		case targetType:
			if n.role == roleType && n.key() == t.key {
				out = append(out, i)
			}
		}
	}
	return out
}

// at decodes a position request and finds the name under its cursor.
func at(doc *document, params json.RawMessage) (o *outline, ni int, err error) {
	var p positionParams
	if err := json.Unmarshal(params, &p); err != nil {
		return nil, -1, &requestError{codeInvalidParams, err.Error()}
	}
	o = doc.outline()
	return o, o.nameAt(doc.offset(p.Position)), nil
}

func (s *server) definition(_ context.Context, doc *document, params json.RawMessage) (any, error) {
	o, ni, err := at(doc, params)
	if err != nil || ni < 0 {
		return nil, err
	}
	t := o.resolve(ni)
	if t.decl < 0 {
		return nil, nil
	}
	d := &o.names[t.decl]
	return []location{{URI: doc.uri, Range: doc.rangeOf(d.start, d.end)}}, nil
}

func (s *server) references(_ context.Context, doc *document, params json.RawMessage) (any, error) {
	var p referenceParams
	if err := json.Unmarshal(params, &p); err != nil {
		return nil, &requestError{codeInvalidParams, err.Error()}
	}
	o := doc.outline()
	ni := o.nameAt(doc.offset(p.Position))
	if ni < 0 {
		return nil, nil
	}
	t := o.resolve(ni)
	out := []location{}
	for _, r := range o.references(t) {
		if !p.Context.IncludeDeclaration && (r == t.decl || o.names[r].role == roleDecl) {
			continue
		}
		out = append(out, location{URI: doc.uri, Range: doc.rangeOf(o.names[r].start, o.names[r].end)})
	}
	return out, nil
}

func (s *server) highlights(_ context.Context, doc *document, params json.RawMessage) (any, error) {
	o, ni, err := at(doc, params)
	if err != nil || ni < 0 {
		return nil, err
	}
	type highlight struct {
		Range lspRange `json:"range"`
		Kind  int      `json:"kind"` // 1 text, 2 read, 3 write
	}
	t := o.resolve(ni)
	out := []highlight{}
	for _, r := range o.references(t) {
		kind := 2
		if r == t.decl || o.names[r].role == roleDecl {
			kind = 3
		}
		out = append(out, highlight{doc.rangeOf(o.names[r].start, o.names[r].end), kind})
	}
	return out, nil
}

// renameable returns the target of name ni when it can be renamed: a
// declared instance or fixture, or a quantified variable.
func (o *outline) renameable(ni int) (target, bool) {
	if ni < 0 {
		return target{}, false
	}
	t := o.resolve(ni)
	ok := t.decl >= 0 && (t.kind == targetInstance || t.kind == targetVariable)
	return t, ok
}

// nameRange is a name's range without its '?', the part a rename replaces.
func nameRange(doc *document, n *name) lspRange {
	start := n.start
	if strings.HasPrefix(n.text, "?") {
		start++
	}
	return doc.rangeOf(start, n.end)
}

func (s *server) prepareRename(_ context.Context, doc *document, params json.RawMessage) (any, error) {
	o, ni, err := at(doc, params)
	if err != nil {
		return nil, err
	}
	if _, ok := o.renameable(ni); !ok {
		return nil, &requestError{codeRequestFailed, "only a declared instance, fixture or quantified variable can be renamed"}
	}
	n := &o.names[ni]
	return map[string]any{"range": nameRange(doc, n), "placeholder": strings.TrimPrefix(n.text, "?")}, nil
}

func (s *server) rename(_ context.Context, doc *document, params json.RawMessage) (any, error) {
	var p renameParams
	if err := json.Unmarshal(params, &p); err != nil {
		return nil, &requestError{codeInvalidParams, err.Error()}
	}
	o := doc.outline()
	ni := o.nameAt(doc.offset(p.Position))
	t, ok := o.renameable(ni)
	if !ok {
		return nil, &requestError{codeRequestFailed, "only a declared instance, fixture or quantified variable can be renamed"}
	}
	newName := strings.TrimPrefix(p.NewName, "?")
	if newName == "" || strings.ContainsAny(newName, " \t\r\n\f\v();?") {
		return nil, &requestError{codeInvalidParams, "a name cannot be empty or hold blanks, parentheses, ';' or '?'"}
	}
	if t.kind == targetInstance && strings.ToLower(newName) != t.key && len(o.decls()[strings.ToLower(newName)]) > 0 {
		return nil, &requestError{codeInvalidParams, newName + " is declared already"}
	}
	var edits []textEdit
	for _, r := range o.references(t) {
		edits = append(edits, textEdit{Range: nameRange(doc, &o.names[r]), NewText: newName})
	}
	return workspaceEdit{Changes: map[string][]textEdit{doc.uri: edits}}, nil
}

// documentSymbols lists the sections, with the declarations of :objects
// and :fixtures, the regions, and the literals of :init and the
// conjuncts of :goal under them.
func (s *server) documentSymbols(_ context.Context, doc *document, _ json.RawMessage) (any, error) {
	o := doc.outline()
	out := []documentSymbol{}
	for fi := range o.forms {
		f := &o.forms[fi]
		if f.kind != formSection || f.head < 0 {
			continue
		}
		h := &o.names[f.head]
		sym := documentSymbol{Name: h.text, Kind: symbolNamespace,
			Range: doc.rangeOf(f.open, o.formEnd(fi)), SelectionRange: doc.rangeOf(h.start, h.end)}
		switch f.section {
		case ":objects", ":fixtures":
			for i := f.head + 1; i < len(o.names) && o.within(o.names[i].form, fi); i++ {
				if n := &o.names[i]; n.role == roleDecl && n.form == fi {
					r := doc.rangeOf(n.start, n.end)
					sym.Children = append(sym.Children, documentSymbol{Name: n.text, Detail: o.typeOf(i), Kind: symbolVariable, Range: r, SelectionRange: r})
				}
			}
		case ":regions", ":init", ":goal":
			for ci := fi + 1; ci < len(o.forms) && o.forms[ci].open < o.formEnd(fi); ci++ {
				c := &o.forms[ci]
				if c.parent != fi {
					continue
				}
				sel := doc.rangeOf(c.open, c.open+1)
				if c.head >= 0 {
					sel = doc.rangeOf(o.names[c.head].start, o.names[c.head].end)
				}
				kind, label := symbolEvent, compact(o.text[c.open:o.formEnd(ci)], 80)
				if f.section == ":regions" {
					kind = symbolObject
					if c.head >= 0 {
						label = o.names[c.head].text
					}
				}
				sym.Children = append(sym.Children, documentSymbol{Name: label, Kind: kind,
					Range: doc.rangeOf(c.open, o.formEnd(ci)), SelectionRange: sel})
			}
		}
		out = append(out, sym)
	}
	return out, nil
}

// compact is s on one line with its blanks collapsed, cut at n bytes.
func compact(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	s = strings.ReplaceAll(s, "( ", "(")
	s = strings.ReplaceAll(s, " )", ")")
	if len(s) > n {
		cut := n
		for cut > 0 && s[cut]&0xC0 == 0x80 {
			cut--
		}
		s = s[:cut] + "…"
	}
	return s
}
