package bddl

import (
	"strings"
	"testing"
)

func TestParenHints(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		src     string
		trusted bool
		want    []string // "code line:col" of each hint
	}{
		{name: "balanced", src: "(a\n    (b c)\n)\n", trusted: true},
		{name: "inner form unclosed", src: "(a\n    (b\n        (c d)\n)\n", trusted: true, want: []string{"unclosed-paren 2:5"}},
		{name: "two forms unclosed", src: "(a\n    (b\n        (c\n            (d e)\n)\n", trusted: true,
			want: []string{"unclosed-paren 3:9", "unclosed-paren 2:5"}},
		{name: "extra at a line end", src: "(a\n    (b\n        (c d))\n    )\n)\n", trusted: true, want: []string{"extra-paren 3:14"}},
		{name: "extra after the end", src: "(a\n)\n)\n", trusted: true, want: []string{"extra-paren 3:1"}},
		{name: "left open at the end", src: "(a\n    (b\n        (c d)\n", trusted: true, want: []string{"unclosed-paren 1:1"}},
		{name: "comment after a closer", src: "(a\n    (b c)\n) ; done (\n", trusted: true},
		// The form the ')' lines up with was itself closed by a ')' of its
		// own line: the layout contradicts itself.
		{name: "aligned child then misplaced closer", src: "(a\n    (b\n    )\n    )\n)\n", trusted: false},
		{name: "no form lines up", src: "(a\n    (b\n  )\n)\n", trusted: false},
		{name: "closer right of a form with no child", src: "(a\n      )\n", trusted: false},
		{name: "too many unclosed", src: "(a\n    " + strings.Repeat("(b ", maxErrors+1) + "\n)\n", trusted: false},
		// Closers indented with the content are a style, not slips.
		{name: "closers indented with the content", src: "(a\n    (b\n        (c d)\n        )\n    (e\n        (f g)\n        )\n    (h\n        (i j)\n        )\n    )\n", trusted: false},
		{name: "closers at line ends give nothing to check", src: "(a\n    (b\n        (c d))\n", trusted: true, want: []string{"unclosed-paren 1:1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hints, trusted := parenHints([]byte(tt.src))
			if trusted != tt.trusted {
				t.Fatalf("parenHints(%q) trusted = %v, want %v", tt.src, trusted, tt.trusted)
			}
			if !trusted {
				return
			}
			var got []string
			for _, h := range hints {
				got = append(got, h.code()+" "+h.at.Start.String())
			}
			if strings.Join(got, ", ") != strings.Join(tt.want, ", ") {
				t.Errorf("parenHints(%q) = %v, want %v", tt.src, got, tt.want)
			}
		})
	}
}

// The layout only refines errors the parser found; a well-formed file in
// any layout parses without a diagnostic.
func TestParenHintsOnlyOnErrors(t *testing.T) {
	t.Parallel()
	src := "(define (problem p)\n  (:domain omnigibson)\n    (:objects apple.n.01_1 - apple.n.01\n)\n (:init (cooked apple.n.01_1)\n          )\n(:goal (cooked ?apple.n.01_1)))\n"
	if _, diags := ParseFile("p.bddl", []byte(src)); diags.HasErrors() {
		t.Fatalf("ParseFile: %v", diags)
	}
}
