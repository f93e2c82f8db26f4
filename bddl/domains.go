package bddl

import (
	"embed"
	"fmt"
	"sync"
)

//go:embed domains/*.bddl
var domainFiles embed.FS

var embeddedDomains = sync.OnceValue(func() map[string]*Domain {
	out := map[string]*Domain{}
	entries, _ := domainFiles.ReadDir("domains")
	for _, e := range entries {
		name := "domains/" + e.Name()
		src, _ := domainFiles.ReadFile(name)
		d, diags := ParseDomain(name, src)
		if diags.HasErrors() {
			panic(fmt.Sprintf("embedded domain %s: %v", name, diags)) // a build defect, caught by tests
		}
		out[d.Name.Key()] = d
	}
	return out
})

// EmbeddedDomain returns the built-in domain of that name: omnigibson,
// behavior-1k or igibson (case-insensitive).
func EmbeddedDomain(name string) (*Domain, bool) {
	d, ok := embeddedDomains()[Fold(name)]
	return d, ok
}

// EmbeddedDomainNames lists the built-in domains.
func EmbeddedDomainNames() []string {
	return []string{"behavior-1k", "igibson", "omnigibson"}
}
