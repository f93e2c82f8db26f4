package termsafe

import (
	"strings"
	"testing"
)

func TestText(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"apple.n.01_1", "apple.n.01_1"},
		{"café", "café"},
		{"a\x1b]0;pwned\x07b", `a\x1b]0;pwned\ab`},
		{"x\r\nFAKE LINE", `x\r\nFAKE LINE`},
		{"tab\there", `tab\there`},
		{"c1\u009b31m", `c1\u009b31m`},
		{"bidi\u202eevil", `bidi\u202eevil`},
		{"bad\xffbyte", `bad\xffbyte`},
		{"del\x7f", `del\x7f`},
	} {
		if got := Text(tc.in); got != tc.want {
			t.Errorf("Text(%q) = %q, want %q", tc.in, got, tc.want)
		}
		if got := Text(tc.in); strings.ContainsAny(got, "\x1b\x07\r\n\x7f\u009b\u202e") {
			t.Errorf("Text(%q) = %q keeps a control", tc.in, got)
		}
	}
}

func TestWriter(t *testing.T) {
	for _, tc := range []struct {
		colors bool
		in     []string
		want   string
	}{
		{false, []string{"plain\ttext\n"}, "plain\ttext\n"},
		{false, []string{"a\x1b]0;t\x07b\r\n"}, `a\x1b]0;t\ab\r` + "\n"},
		{false, []string{"\x1b[31mred\x1b[0m"}, `\x1b[31mred\x1b[0m`},
		{true, []string{"\x1b[31mred\x1b[0m\x1b]0;t\x07"}, "\x1b[31mred\x1b[0m" + `\x1b]0;t\a`},
		{false, []string{"caf\xc3", "\xa9 \xc2", "\x9b"}, `café \u009b`},
		{false, []string{"\xff"}, `\xff`},
	} {
		var b strings.Builder
		w := NewWriter(&b, tc.colors)
		for _, s := range tc.in {
			if n, err := w.Write([]byte(s)); err != nil || n != len(s) {
				t.Fatalf("Write = %d, %v", n, err)
			}
		}
		if b.String() != tc.want {
			t.Errorf("%q → %q, want %q", tc.in, b.String(), tc.want)
		}
	}
}

func FuzzText(f *testing.F) {
	f.Add("a\x1b]0;x\x07\r\n\u009b\xff")
	f.Fuzz(func(t *testing.T, s string) {
		got := Text(s)
		for _, r := range got {
			if unsafeRune(r) {
				t.Fatalf("Text(%q) = %q keeps %U", s, got, r)
			}
		}
		var b strings.Builder
		w := NewWriter(&b, false)
		w.Write([]byte(s))
		for i := 0; i < b.Len(); i++ {
			if c := b.String()[i]; c < 0x20 && c != '\n' && c != '\t' || c == 0x7f {
				t.Fatalf("Writer(%q) = %q keeps %#x", s, b.String(), c)
			}
		}
	})
}
