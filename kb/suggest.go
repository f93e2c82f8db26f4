package kb

import (
	"github.com/openbddl/bddl/bddl"

	"fmt"
	"sort"
	"strings"
)

// Suggest returns up to n candidates close to name in edit distance, best
// first: the did-you-mean for a misspelt room type or property.
func Suggest(name string, candidates []string, n int) []string {
	limit := suggestLimit(name)
	var found []scored
	for _, c := range candidates {
		if d := bddl.EditDistance(name, c, limit); d <= limit {
			found = append(found, scored{c, d})
		}
	}
	return best(found, n)
}

type scored struct {
	s string
	d int
}

func best(found []scored, n int) []string {
	sort.Slice(found, func(i, j int) bool {
		if found[i].d != found[j].d {
			return found[i].d < found[j].d
		}
		return found[i].s < found[j].s
	})
	if len(found) > n {
		found = found[:n]
	}
	out := make([]string, len(found))
	for i, f := range found {
		out[i] = f.s
	}
	return out
}

// suggestLimit is the largest edit distance worth suggesting: about one
// edit per four letters, at least one.
func suggestLimit(name string) int {
	return max(1, (len(name)+2)/4)
}

// lemma is the word part of a synset name: "apple" for "apple.n.01".
func lemma(name string) string {
	if i := strings.Index(name, ".n."); i >= 0 {
		return name[:i]
	}
	if i := strings.IndexByte(name, '.'); i >= 0 {
		return name[:i]
	}
	return name
}

// SuggestSynsets returns up to n known synset names close to name, best
// first. It compares whole names and, so that "water" or "apple.n.02"
// find their synsets, the lemmas alone.
func (b *Base) SuggestSynsets(name string, n int) []string {
	name = strings.ToLower(name)
	lem := lemma(name)
	limit := suggestLimit(name)
	lemLimit := suggestLimit(lem)
	const none = 1 << 30
	var found []scored
	for _, c := range b.names {
		d := bddl.EditDistance(name, c, limit)
		if d > limit {
			d = none
		}
		if dl := bddl.EditDistance(lem, lemma(c), lemLimit); dl <= lemLimit && dl+1 < d {
			d = dl + 1
		}
		if d < none {
			found = append(found, scored{c, d})
		}
	}
	return best(found, n)
}

// unknownSynsetMessage explains an unknown synset name with a hint.
func (b *Base) unknownSynsetMessage(name string) string {
	msg := fmt.Sprintf("unknown synset %s", name)
	if b.IsPruned(name) {
		return msg + " (the knowledge base lists it as pruned)"
	}
	if s := b.SuggestSynsets(name, 3); len(s) > 0 {
		msg += " (did you mean " + strings.Join(s, ", ") + "?)"
	}
	return msg
}

// UnknownSynsetMessage is the message commands print for a synset name
// that Lookup does not know, with a did-you-mean when there is one.
func (b *Base) UnknownSynsetMessage(name string) string { return b.unknownSynsetMessage(name) }

// Search returns the synsets whose names contain text (case-insensitive;
// empty text matches all) and that have every property in ps, sorted by
// name.
func (b *Base) Search(text string, ps ...Property) []SynsetID {
	text = strings.ToLower(text)
	var out []SynsetID
	for id, name := range b.names {
		if text != "" && !strings.Contains(name, text) {
			continue
		}
		if !b.HasAll(SynsetID(id), ps...) {
			continue
		}
		out = append(out, SynsetID(id))
	}
	sort.Slice(out, func(i, j int) bool { return b.names[out[i]] < b.names[out[j]] })
	return out
}
