package activities

import (
	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/kb"
)

// UnknownSynsets lists the synsets p's :objects declare that base does
// not know, in source order, each once. A LIBERO problem names its own
// object types, not synsets, and lists none.
//
// Commands use it to refuse a definition that a knowledge base chosen by
// default cannot serve (the embedded examples' one against a BEHAVIOR-1K
// definition), before any finding or verdict built on wrong data.
func UnknownSynsets(p *bddl.Problem, base *kb.Base) []string {
	if p == nil || p.Libero != nil {
		return nil
	}
	var out []string
	seen := map[string]bool{}
	for _, o := range p.Objects {
		name := o.Type.Name
		if name == "" || seen[name] {
			continue
		}
		seen[name] = true
		if _, ok := base.Lookup(name); !ok {
			out = append(out, name)
		}
	}
	return out
}
