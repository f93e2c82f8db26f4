package lsp

import (
	"context"
	"encoding/json"
	"strings"
)

// codeActions offers validate's fixes that are edits: "did you mean X?"
// replaces the diagnostic's subject, a single name, with X (one action per
// suggestion, the first preferred).
func (s *server) codeActions(_ context.Context, doc *document, params json.RawMessage) (any, error) {
	var p codeActionParams
	if err := json.Unmarshal(params, &p); err != nil {
		return nil, &requestError{codeInvalidParams, err.Error()}
	}
	out := []codeAction{}
	for _, d := range p.Context.Diagnostics {
		if d.Data == nil {
			continue
		}
		start, end := doc.offset(d.Range.Start), doc.offset(d.Range.End)
		subject := doc.text[start:end]
		if subject == "" || strings.ContainsAny(subject, " \t\r\n();") {
			continue
		}
		for i, alt := range suggestions(d.Data.Fix) {
			newText := alt
			if strings.HasPrefix(subject, "?") && !strings.HasPrefix(alt, "?") {
				newText = "?" + alt
			}
			if strings.EqualFold(newText, subject) {
				continue
			}
			out = append(out, codeAction{
				Title: "Replace " + subject + " with " + newText, Kind: "quickfix",
				Diagnostics: []diagnostic{d}, IsPreferred: i == 0,
				Edit: &workspaceEdit{Changes: map[string][]textEdit{doc.uri: {{Range: d.Range, NewText: newText}}}},
			})
		}
	}
	return out, nil
}

// suggestions reads the names of a fix "did you mean X?" or "did you mean
// one of X, Y?" (the words the checker and the rules write), at its start
// or after a "(".
func suggestions(fix string) []string {
	i := strings.Index(fix, "did you mean ")
	if i < 0 {
		return nil
	}
	rest := fix[i+len("did you mean "):]
	rest = strings.TrimPrefix(rest, "one of ")
	j := strings.IndexByte(rest, '?')
	if j < 0 {
		return nil
	}
	var out []string
	for _, s := range strings.Split(rest[:j], ",") {
		s = strings.TrimSpace(s)
		if s == "" || strings.ContainsAny(s, " ()") {
			return nil
		}
		out = append(out, s)
	}
	return out
}
