package lsp

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
)

// The semantic token legend: indexes into tokenTypes.
var tokenTypes = []string{"keyword", "function", "variable", "type", "parameter", "comment", "number", "namespace", "property"}

const (
	tokKeyword = iota
	tokFunction
	tokVariable
	tokType
	tokParameter
	tokComment
	tokNumber
	tokNamespace
	tokProperty
)

// semanticTokensFull colours names by their role in the outline; a name
// with no role is left to the grammar.
func (s *server) semanticTokensFull(_ context.Context, doc *document, _ json.RawMessage) (any, error) {
	o := doc.outline()
	type tok struct{ start, end, typ, mods int }
	var toks []tok
	for i := range o.names {
		n := &o.names[i]
		typ, mods := -1, 0
		switch n.role {
		case roleHeader, roleSection, roleConnective, roleDash, roleAttr:
			typ = tokKeyword
		case rolePredicate:
			typ = tokFunction
		case roleDecl:
			typ, mods = tokVariable, 1
		case roleArg, roleRef, roleTarget:
			typ = tokVariable
			if strings.HasPrefix(n.text, "?") && o.variable(i) >= 0 {
				typ = tokParameter
			}
		case roleVarDecl:
			typ, mods = tokParameter, 1
		case roleType:
			typ = tokType
		case roleRegion:
			typ, mods = tokProperty, 1
		case roleNumber:
			typ = tokNumber
		case roleDomain:
			typ = tokNamespace
		}
		if typ >= 0 {
			toks = append(toks, tok{n.start, n.end, typ, mods})
		}
	}
	// Comments, merged into the names' order.
	for _, c := range o.comments {
		toks = append(toks, tok{c[0], c[1], tokComment, 0})
	}
	slices.SortStableFunc(toks, func(a, b tok) int { return a.start - b.start })
	data := make([]uint32, 0, 5*len(toks))
	prevLine, prevChar := 0, 0
	for _, t := range toks {
		start, end := doc.position(t.start), doc.position(t.end)
		if end.Line != start.Line { // tokens never span lines
			continue
		}
		char := start.Character
		if start.Line == prevLine {
			char -= prevChar
		}
		data = append(data, uint32(start.Line-prevLine), uint32(char), uint32(end.Character-start.Character), uint32(t.typ), uint32(t.mods))
		prevLine, prevChar = start.Line, start.Character
	}
	return semanticTokens{Data: data}, nil
}
