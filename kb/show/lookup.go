package show

import (
	"sort"
	"strings"

	"github.com/openbddl/bddl/kb"
)

// Lookup resolves synset names (instance names too); unknown holds the
// did-you-mean message of each name not found.
func Lookup(b *kb.Base, names []string) (ids []kb.SynsetID, unknown []string) {
	for _, name := range names {
		id, ok := b.Lookup(kb.SynsetOfTerm(name))
		if !ok {
			unknown = append(unknown, b.UnknownSynsetMessage(name))
			continue
		}
		ids = append(ids, id)
	}
	return ids, unknown
}

// Names are the synset names that start with prefix, sorted: what a
// shell completes a synset from.
func Names(b *kb.Base, prefix string) []string {
	var out []string
	for id := range b.NumSynsets() {
		if name := b.Name(kb.SynsetID(id)); strings.HasPrefix(name, prefix) {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}
