package lsp

import "github.com/openbddl/bddl/kb"

// kbOf is the knowledge base a test passes, nil for the embedded default.
func kbOf(b any) *kb.Base {
	if base, ok := b.(*kb.Base); ok {
		return base
	}
	return nil
}
