package lsp

import (
	"fmt"
	"strings"

	"github.com/openbddl/bddl/activities"
	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/kb"
)

// findings validates doc as `bddl validate` validates a file.
func (s *server) findings(doc *document) []activities.Finding {
	name := doc.path
	if name == "" {
		name = doc.uri
	}
	var base *kb.Base
	if !s.isLibero(doc) {
		base = s.base(doc)
	}
	p, rep, _ := activities.ValidateDefinition(name, []byte(doc.text), s.opts.Dialect, base, s.opts.Rules...)
	if base == kb.Default() {
		s.warnEmbedded(doc, activities.UnknownSynsets(p, base))
	}
	return rep.Findings
}

// warnEmbedded says once per document that the embedded example knowledge
// base, used because nothing named another, does not know its synsets:
// its diagnostics then say more about the knowledge base than the file.
// (The other commands refuse such a run; an editor keeps going.)
func (s *server) warnEmbedded(doc *document, unknown []string) {
	if len(unknown) == 0 {
		return
	}
	s.mu.Lock()
	warned := s.kbWarned[doc.uri]
	s.kbWarned[doc.uri] = true
	s.mu.Unlock()
	if warned {
		return
	}
	if len(unknown) > 3 {
		unknown = append(unknown[:3:3], "…")
	}
	s.showMessage(2, fmt.Sprintf("bddl lsp: the embedded example knowledge base does not know %s; give the BEHAVIOR-1K knowledge base "+
		"(--kb, $BDDL_KB, bddl.toml; bddl.kb in VS Code)", strings.Join(unknown, ", ")))
}

// diagnose is doc's diagnostics: validate's findings in validate's order,
// each with its range, severity, code and message, and its fix and rule
// in data (the fix also as related information, which editors show under
// the message).
func (s *server) diagnose(doc *document) []diagnostic {
	fs := s.findings(doc)
	out := make([]diagnostic, 0, len(fs))
	for i := range fs {
		out = append(out, toDiagnostic(doc, &fs[i]))
	}
	return out
}

func toDiagnostic(doc *document, f *activities.Finding) diagnostic {
	r := findingRange(doc, &f.Diagnostic)
	d := diagnostic{
		Range: r, Severity: severity(f.Severity), Code: f.Code, Source: "bddl", Message: f.Summary,
		Data: &diagnosticData{Fix: f.Detail, Rule: f.Rule},
	}
	if f.Detail != "" {
		d.RelatedInformation = []diagnosticRelatedInformation{{
			Location: location{URI: doc.uri, Range: r}, Message: "fix: " + f.Detail,
		}}
	}
	return d
}

// findingRange is the protocol range of a diagnostic's subject, from its
// byte offsets into the text validated (a subject without a position is
// the file's start).
func findingRange(doc *document, d *bddl.Diagnostic) lspRange {
	if !d.Subject.Start.IsValid() {
		return lspRange{}
	}
	start := int(d.Subject.Start.Offset)
	end := start
	if d.Subject.End.IsValid() {
		end = int(d.Subject.End.Offset)
	}
	return doc.rangeOf(start, end)
}

func severity(s bddl.Severity) int {
	switch s {
	case bddl.Error:
		return 1
	case bddl.Warning:
		return 2
	}
	return 3
}
