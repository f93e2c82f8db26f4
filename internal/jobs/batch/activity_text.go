package batch

import (
	"crypto/sha256"
	"encoding/hex"
)

// ActivityText reads a definition given as text (bddl serve's
// session.open with "definition"): name is used in diagnostics, and the
// program cache keys it by content, so equal texts compile once.
func (r *Resolver) ActivityText(name string, src []byte) (*Activity, error) {
	prob, diags := r.parse.ParseProblem(name, src)
	if diags.HasErrors() {
		return nil, diags
	}
	sum := sha256.Sum256(src)
	return &Activity{Name: prob.Name.Name, Key: "text:" + hex.EncodeToString(sum[:]), Problem: prob, Warnings: diags}, nil
}
