package kb

// The bddl checker sees the knowledge base through its small Schema
// interface (bddl.Schema); these methods make *Base satisfy it without
// this package importing the parser.

// IsSynset reports whether name is a known synset (case-insensitive).
func (b *Base) IsSynset(name string) bool {
	_, ok := b.Lookup(name)
	return ok
}

// Suggest returns up to three known synsets whose names are close to name,
// best first: the checker's did-you-mean.
func (b *Base) Suggest(name string) []string { return b.SuggestSynsets(name, 3) }
