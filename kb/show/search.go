package show

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/openbddl/bddl/kb"
)

// Summary is one kb search result in JSON (bddl schema synset).
type Summary struct {
	Name   string `json:"name"`
	Type   string `json:"type,omitempty"`
	Leaf   bool   `json:"leaf"`
	Custom bool   `json:"custom"`
}

// Search finds the synsets whose names contain text and that have every
// named property; an unknown property is an error with a did-you-mean.
func Search(b *kb.Base, text string, properties []string) ([]kb.SynsetID, error) {
	var props []kb.Property
	for _, name := range properties {
		p, ok := b.PropertyByName(name)
		if !ok {
			var names []string
			for _, q := range b.AllProperties() {
				names = append(names, b.PropertyName(q))
			}
			msg := fmt.Sprintf("unknown property %q", name)
			if s := kb.Suggest(name, names, 1); len(s) > 0 {
				msg += fmt.Sprintf(" (did you mean %s?)", s[0])
			}
			return nil, fmt.Errorf("%s", msg)
		}
		props = append(props, p)
	}
	return b.Search(text, props...), nil
}

// WriteSearch writes the synsets found, one name a line or, as JSON, one
// Summary a line.
func WriteSearch(w io.Writer, b *kb.Base, found []kb.SynsetID, asJSON bool) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for _, id := range found {
		if !asJSON {
			fmt.Fprintln(w, b.Name(id))
			continue
		}
		if err := enc.Encode(Summary{Name: b.Name(id), Type: b.ObjectType(id), Leaf: b.IsLeaf(id), Custom: b.IsCustom(id)}); err != nil {
			return err
		}
	}
	return nil
}
