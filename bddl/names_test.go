package bddl

import "testing"

func TestSplitInstance(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name           string
		in             string
		synset, suffix string
		ok             bool
	}{
		{"numbered", "apple.n.01_1", "apple.n.01", "1", true},
		{"many digits", "apple.n.01_1234", "apple.n.01", "1234", true},
		{"leading zero", "apple.n.01_01", "apple.n.01", "01", true},
		{"wildcard", "cabinet.n.01_*", "cabinet.n.01", "*", true},
		{"double underscore lemma", "half__apple.n.01_2", "half__apple.n.01", "2", true},
		{"underscored lemma", "sugar_cookie.n.01_3", "sugar_cookie.n.01", "3", true},
		{"dotted lemma", "t.v.n.01_1", "t.v.n.01", "1", true},
		{"upper case", "Apple.N.01_1", "Apple.N.01", "1", true},
		{"synset only", "apple.n.01", "", "", false},
		{"trailing underscore", "apple.n.01_", "", "", false},
		{"letters after underscore", "apple.n.01_a", "", "", false},
		{"mixed suffix", "apple.n.01_1a", "", "", false},
		{"double wildcard", "apple.n.01_**", "", "", false},
		{"room", "kitchen", "", "", false},
		{"room instance", "kitchen_0", "", "", false},
		{"no sense number", "apple.n_1", "", "", false},
		{"leading underscore", "_1", "", "", false},
		{"empty", "", "", "", false},
		{"sense number not digits", "apple.n.xx_1", "", "", false},
		{"empty pos", "apple..01_1", "", "", false},
		{"empty lemma", ".n.01_1", "", "", false},
		{"variable with question mark", "?apple.n.01_1", "?apple.n.01", "1", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			synset, suffix, ok := SplitInstance(tt.in)
			if synset != tt.synset || suffix != tt.suffix || ok != tt.ok {
				t.Errorf("SplitInstance(%q) = %q, %q, %v, want %q, %q, %v", tt.in, synset, suffix, ok, tt.synset, tt.suffix, tt.ok)
			}
			if got := IsInstanceName(tt.in); got != tt.ok {
				t.Errorf("IsInstanceName(%q) = %v, want %v", tt.in, got, tt.ok)
			}
			if got, want := IsWildcard(tt.in), tt.ok && tt.suffix == "*"; got != want {
				t.Errorf("IsWildcard(%q) = %v, want %v", tt.in, got, want)
			}
		})
	}
}

func TestIsWildcard(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want bool
	}{
		{"cabinet.n.01_*", true},
		{"table.n.02_*", true},
		{"cabinet.n.01_1", false},
		{"cabinet.n.01", false},
		{"kitchen_*", false}, // not a synset
		{"_*", false},
		{"*", false},
		{"cabinet.n.01*", false},
	}
	for _, tt := range tests {
		if got := IsWildcard(tt.in); got != tt.want {
			t.Errorf("IsWildcard(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestIsSynsetName(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want bool
	}{
		{"apple.n.01", true},
		{"half__apple.n.01", true},
		{"sugar_cookie.n.01", true},
		{"agent.n.01", true},
		{"t.v.n.01", true},
		{"a.n.1", true},
		{"APPLE.N.01", true},
		{"apple.n.01_1", false},
		{"apple.n", false},
		{"apple.n.", false},
		{"apple..01", false},
		{".n.01", false},
		{"apple.n.0x", false},
		{"apple", false},
		{"kitchen", false},
		{"", false},
		{".", false},
		{"..1", false},
	}
	for _, tt := range tests {
		if got := IsSynsetName(tt.in); got != tt.want {
			t.Errorf("IsSynsetName(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestFold(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"", ""},
		{"and", "and"},
		{"AND", "and"},
		{":GOAL", ":goal"},
		{"ForAll", "forall"},
		{"Apple.N.01_1", "apple.n.01_1"},
		{"café", "café"},
		{"x_*", "x_*"},
		// Eight bytes and more take the word-at-a-time path: a capital
		// or non-ASCII letter in any position, and the bytes just
		// outside 'A'..'Z', must be found.
		{"washer.n.03_1", "washer.n.03_1"},
		{"Washer.n.03_1", "washer.n.03_1"},
		{"washer.N.03_1", "washer.n.03_1"},
		{"washer.n.03_X", "washer.n.03_x"},
		{"abcdefgZ", "abcdefgz"},
		{"@@@@[[[[@[`{", "@@@@[[[[@[`{"},
		{"appleÉ.n.01", "appleé.n.01"},
		{"ÉCLAIR.N.01_1", "éclair.n.01_1"},
	}
	for _, tt := range tests {
		if got := Fold(tt.in); got != tt.want {
			t.Errorf("Fold(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestFoldConsistent checks that names differing only in the case of ASCII
// letters fold to the same key, whatever other letters they hold: Ident.Key
// and Term.Key compare names this way.
func TestFoldConsistent(t *testing.T) {
	t.Parallel()
	tests := []struct{ a, b string }{
		{"apple.n.01_1", "APPLE.N.01_1"},
		{"café.n.01", "CAFé.N.01"},
		{"cafÉ.n.01", "CAFÉ.N.01"}, // É is not ASCII: Fold must treat it alike in both
		{"straße.n.01", "STRAßE.n.01"},
	}
	for _, tt := range tests {
		if fa, fb := Fold(tt.a), Fold(tt.b); fa != fb {
			t.Errorf("Fold(%q) = %q, Fold(%q) = %q; want equal keys for names that differ only in ASCII case", tt.a, fa, tt.b, fb)
		}
	}
}

// TestFoldNoAlloc checks that folding an already lower-case name, the
// common case on every name lookup, does not allocate.
func TestFoldNoAlloc(t *testing.T) {
	s := "sugar_cookie.n.01_1"
	if n := testing.AllocsPerRun(100, func() { _ = Fold(s) }); n != 0 {
		t.Errorf("Fold(%q) allocates %v times, want 0", s, n)
	}
}

func TestLemma(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"sugar_cookie.n.01", "sugar_cookie"},
		{"half__apple.n.01", "half__apple"},
		{"apple", "apple"},
		{".n.01", ".n.01"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := Lemma(tt.in); got != tt.want {
			t.Errorf("Lemma(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// FuzzIsInstanceName holds the parser's one-pass instance test to
// SplitInstance, which defines the shape.
func FuzzIsInstanceName(f *testing.F) {
	for _, s := range []string{"apple.n.01_1", "cabinet.n.01_*", "a.b.1_2", "x_1", ".n.01_1", "a..01_1",
		"a.n.01_", "a.n._1", "a.n.01_1*", "a.n.01__1", "_1", "", "a.n.01_x1", "Café.N.01_12"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		_, _, want := SplitInstance(name)
		if got := IsInstanceName(name); got != want {
			t.Fatalf("IsInstanceName(%q) = %v, SplitInstance says %v", name, got, want)
		}
	})
}
