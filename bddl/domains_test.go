package bddl

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/openbddl/bddl/internal/corpus"
)

// predicateSet maps each predicate of d to its arity.
func predicateSet(d *Domain) map[string]int {
	out := map[string]int{}
	for _, p := range d.Predicates {
		out[p.Name.Key()] = len(p.Params)
	}
	return out
}

func TestEmbeddedDomain(t *testing.T) {
	t.Parallel()
	names := EmbeddedDomainNames()
	if !slices.IsSorted(names) {
		t.Errorf("EmbeddedDomainNames() = %v, want sorted", names)
	}
	if diff := cmp.Diff([]string{"behavior-1k", "igibson", "omnigibson"}, names); diff != "" {
		t.Errorf("EmbeddedDomainNames() (-want +got):\n%s", diff)
	}
	for _, name := range names {
		d, ok := EmbeddedDomain(name)
		if !ok {
			t.Errorf("EmbeddedDomain(%q) not found", name)
			continue
		}
		if d.Name.Key() != name {
			t.Errorf("EmbeddedDomain(%q).Name = %q", name, d.Name.Name)
		}
		if len(d.Predicates) == 0 {
			t.Errorf("EmbeddedDomain(%q) has no predicates", name)
		}
		seen := map[string]bool{}
		for _, p := range d.Predicates {
			if seen[p.Name.Key()] {
				t.Errorf("EmbeddedDomain(%q) declares %s twice", name, p.Name.Name)
			}
			seen[p.Name.Key()] = true
			if n := len(p.Params); n < 1 || n > 2 {
				t.Errorf("EmbeddedDomain(%q): %s has %d parameters, want 1 or 2", name, p.Name.Name, n)
			}
		}
		// The embedded text is canonical and round-trips.
		f := &File{Domain: d}
		checkRoundTrip(t, name, f, Format(f))
	}
	for _, name := range []string{"OmniGibson", "IGIBSON", "Behavior-1K"} {
		if _, ok := EmbeddedDomain(name); !ok {
			t.Errorf("EmbeddedDomain(%q) not found; names are case-insensitive", name)
		}
	}
	for _, name := range []string{"", "behavior", "omnigibson.bddl", "pddl"} {
		if d, ok := EmbeddedDomain(name); ok {
			t.Errorf("EmbeddedDomain(%q) = %s, want none", name, d.Name.Name)
		}
	}
}

func TestEmbeddedDomainPredicates(t *testing.T) {
	t.Parallel()
	tests := []struct {
		domain string
		want   map[string]int // predicates that must be declared, with arity
		absent []string
	}{
		{"igibson", map[string]int{
			"onfloor": 2, "soaked": 1, "stained": 1, "dusty": 1, "sliced": 1,
			"inside": 2, "nextto": 2, "ontop": 2, "under": 2, "touching": 2,
			"cooked": 1, "open": 1, "frozen": 1, "toggled_on": 1, "inroom": 2,
		}, []string{"future", "real", "filled", "covered"}},
		{"omnigibson", map[string]int{
			"cooked": 1, "open": 1, "future": 1, "real": 1, "covered": 2, "filled": 2, "contains": 2,
			"saturated": 2, "ontop": 2, "inside": 2, "nextto": 2, "inroom": 2, "insource": 2,
			"draped": 2, "attached": 2, "overlaid": 2, "toggled_on": 1, "on_fire": 1,
		}, []string{"onfloor", "soaked", "stained", "dusty"}},
	}
	for _, tt := range tests {
		t.Run(tt.domain, func(t *testing.T) {
			t.Parallel()
			d, ok := EmbeddedDomain(tt.domain)
			if !ok {
				t.Fatalf("EmbeddedDomain(%q) not found", tt.domain)
			}
			got := predicateSet(d)
			for name, arity := range tt.want {
				if n, ok := got[name]; !ok || n != arity {
					t.Errorf("%s: %s has arity %d (declared: %v), want %d", tt.domain, name, n, ok, arity)
				}
				if p, ok := d.Predicate(name); !ok || p.Name.Key() != name {
					t.Errorf("%s: Predicate(%q) = %v, %v", tt.domain, name, p, ok)
				}
			}
			for _, name := range tt.absent {
				if _, ok := got[name]; ok {
					t.Errorf("%s declares %s, which it should not", tt.domain, name)
				}
			}
		})
	}
	// behavior-1k is another name for omnigibson's predicates.
	b1k, _ := EmbeddedDomain("behavior-1k")
	og, _ := EmbeddedDomain("omnigibson")
	if diff := cmp.Diff(predicateSet(og), predicateSet(b1k)); diff != "" {
		t.Errorf("behavior-1k and omnigibson predicates differ (-omnigibson +behavior-1k):\n%s", diff)
	}
}

// TestEmbeddedDomainsMatchCorpus checks the embedded domains against the
// BEHAVIOR-1K domain files: omnigibson declares exactly the corpus's
// predicates; igibson declares at least the corpus's.
func TestEmbeddedDomainsMatchCorpus(t *testing.T) {
	t.Parallel()
	dir := corpus.ActivitiesDir(t)
	tests := []struct {
		file, name string
		exact      bool
	}{
		{"domain_omnigibson.bddl", "omnigibson", true},
		{"domain_igibson.bddl", "igibson", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			path := filepath.Join(dir, tt.file)
			ref, diags := ParseDomain(path, readT(t, path))
			if len(diags) != 0 {
				t.Fatalf("ParseDomain(%s):\n%s", tt.file, brief(diags))
			}
			emb, _ := EmbeddedDomain(tt.name)
			want, got := predicateSet(ref), predicateSet(emb)
			if tt.exact {
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("embedded %s differs from %s (-corpus +embedded):\n%s", tt.name, tt.file, diff)
				}
				return
			}
			for name, arity := range want {
				if got[name] != arity {
					t.Errorf("embedded %s: %s has arity %d, corpus %s has %d", tt.name, name, got[name], tt.file, arity)
				}
			}
		})
	}
}

// TestCorpusUsesDeclaredPredicates checks every atom of the corpus against
// the embedded domain its problem names.
func TestCorpusUsesDeclaredPredicates(t *testing.T) {
	t.Parallel()
	for _, path := range corpus.ActivityFiles(t) {
		p, diags := ParseProblem(path, readT(t, path))
		if p == nil || diags.HasErrors() {
			continue
		}
		d, ok := EmbeddedDomain(p.Domain.Name)
		if !ok {
			t.Errorf("%s: domain %q is not embedded", corpus.Rel(t, path), p.Domain.Name)
			continue
		}
		p.Atoms(func(a *Atom) {
			decl, ok := d.Predicate(a.Pred.Name)
			if !ok {
				t.Errorf("%s:%s: predicate %s is not declared by %s", corpus.Rel(t, path), a.Range.Start, a.Pred.Name, d.Name.Name)
				return
			}
			if len(decl.Params) != len(a.Args) {
				t.Errorf("%s:%s: %s takes %d arguments, has %d", corpus.Rel(t, path), a.Range.Start, a.Pred.Name, len(decl.Params), len(a.Args))
			}
		})
	}
}
