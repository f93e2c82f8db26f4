package ogconvert

import (
	"context"
	"errors"
	"io"
	"testing"

	"github.com/openbddl/bddl/internal/jobs/batch"
	"github.com/openbddl/bddl/kb"
)

func TestConvertMisuse(t *testing.T) {
	t.Parallel()
	loaded := false
	ok := Request{Out: "out", Format: "text", Offsets: "support", Stdout: io.Discard, Stderr: io.Discard,
		LoadKB: func() (*kb.Base, error) { loaded = true; return kb.Default(), nil }, KBSource: func() string { return "kb" }}
	for _, tc := range []struct {
		name string
		edit func(*Request)
	}{
		{"no -o", func(r *Request) { r.Out = "" }},
		{"bad format", func(r *Request) { r.Format = "yaml" }},
		{"negative jobs", func(r *Request) { r.Jobs = -1 }},
		{"bad offsets", func(r *Request) { r.Offsets = "guess" }},
	} {
		r := ok
		tc.edit(&r)
		var u *batch.UsageError
		if err := Convert(context.Background(), []string{"x"}, Options{}, r); !errors.As(err, &u) {
			t.Errorf("%s: Convert error %v, want a usage error", tc.name, err)
		}
	}
	if loaded {
		t.Error("the knowledge base was loaded for a request refused before it")
	}
}
