package lsp

import (
	"context"
	"encoding/json"

	"github.com/aymanbagabas/go-udiff"

	"github.com/openbddl/bddl/bddl"
)

// formatted is doc's text as `bddl fmt` prints it; ok is false when the
// file has syntax errors (fmt leaves such a file alone).
func (s *server) formatted(doc *document) (string, bool) {
	f, diags := bddl.Options{Dialect: s.opts.Dialect}.ParseFile(doc.path, []byte(doc.text))
	if f == nil || diags.HasErrors() {
		return "", false
	}
	out := bddl.Format(f)
	if out == nil {
		return "", false
	}
	return string(out), true
}

// formatEdits are the edits from doc's text to its formatted text, as
// small as a diff of the bytes makes them (mostly blanks), so the
// cursor and marks stay where they were; keep, when not nil, chooses
// which to return.
func (s *server) formatEdits(doc *document, keep func(udiff.Edit) bool) []textEdit {
	out, ok := s.formatted(doc)
	edits := []textEdit{}
	if !ok || out == doc.text {
		return edits
	}
	for _, e := range udiff.Strings(doc.text, out) {
		if keep == nil || keep(e) {
			edits = append(edits, textEdit{Range: doc.rangeOf(e.Start, e.End), NewText: e.New})
		}
	}
	return edits
}

func (s *server) formatting(_ context.Context, doc *document, _ json.RawMessage) (any, error) {
	return s.formatEdits(doc, nil), nil
}

// rangeFormatting formats the lines the range touches: the edits of the
// whole file's formatting that fall within them (the layout of the
// elements there; what joins them to the rest stays).
func (s *server) rangeFormatting(_ context.Context, doc *document, params json.RawMessage) (any, error) {
	var p rangeFormattingParams
	if err := json.Unmarshal(params, &p); err != nil {
		return nil, &requestError{codeInvalidParams, err.Error()}
	}
	start := doc.offset(position{Line: p.Range.Start.Line})
	end := doc.offset(p.Range.End)
	if line := p.Range.End.Line; line+1 < len(doc.lines) && (p.Range.End.Character > 0 || line == p.Range.Start.Line) {
		end = doc.lines[line+1]
	} else if line+1 >= len(doc.lines) {
		end = len(doc.text)
	}
	return s.formatEdits(doc, func(e udiff.Edit) bool { return e.Start >= start && e.End <= end }), nil
}
