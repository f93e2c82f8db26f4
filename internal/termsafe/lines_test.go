package termsafe

import (
	"bytes"
	"testing"
)

func TestLines(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want string }{
		{"plain", "plain"},
		{"a\n\tb", "a\n\tb"},
		{"bad\x1b[31m\nline", Text("bad\x1b[31m") + "\nline"},
	} {
		if got := Lines(tc.in); got != tc.want {
			t.Errorf("Lines(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestRaw(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	if Raw(NewWriter(&b, false)) != &b {
		t.Error("Raw(NewWriter(w)) is not w")
	}
	if Raw(&b) != &b {
		t.Error("Raw(w) of a plain writer is not w")
	}
}
