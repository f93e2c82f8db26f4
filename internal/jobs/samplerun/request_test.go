package samplerun

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/internal/jobs/batch"
	"github.com/openbddl/bddl/kb"
	"github.com/openbddl/bddl/sampler"
)

func request(t *testing.T) Request {
	return Request{Count: 1, Format: "text", Write: sampler.WriteOptions{Out: t.TempDir()},
		LoadKB: func() (*kb.Base, error) { return kb.Default(), nil }, KBSource: func() string { return "kb" },
		Parse: func() (bddl.Options, error) { return bddl.Options{Mode: bddl.Reference}, nil },
		Pool:  func(int) batch.Pool { return batch.Pool{Jobs: 1} }, Note: func(string) {},
		Stdout: io.Discard, Stderr: io.Discard}
}

func TestSampleMisuse(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		edit func(*Request)
		want string
	}{
		{"unknown name", func(r *Request) { r.Args = []string{"cleaning_shoe"} }, "did you mean cleaning_shoes?"},
		{"unknown rule", func(r *Request) { r.After = "sugar_cookie" }, "did you mean sugar_cookies?"},
		{"unknown scene", func(r *Request) { r.Args, r.Scene = []string{"cleaning_shoes"}, "Rs_intt" }, "--scene Rs_intt: no such scene in kb"},
		{"bad lists", func(r *Request) { r.Lists = "/no/such/lists.json" }, "--sampling-lists"},
	} {
		r := request(t)
		tc.edit(&r)
		var u *batch.UsageError
		err := Sample(context.Background(), r)
		if !errors.As(err, &u) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: Sample error %v, want a usage error with %q", tc.name, err, tc.want)
		}
	}
}

func TestRequestCheck(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		edit func(*Request)
		want string // "" for none
	}{
		{"ok", func(*Request) {}, ""},
		{"nothing", func(r *Request) { r.Args = nil }, "sample needs a definition"},
		{"after and a path", func(r *Request) { r.After = "sugar_cookies" }, "give no PATH"},
		{"no -o", func(r *Request) { r.Write.Out = "" }, "sample needs -o OUT"},
		{"n too large", func(r *Request) { r.Count = MaxCount + 1 }, "-n must be between 1 and 1000000"},
		{"bad format", func(r *Request) { r.Format = "yaml" }, "--format must be text or json"},
	} {
		r := request(t)
		r.Args = []string{"cleaning_shoes"}
		tc.edit(&r)
		err := r.Check()
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%s: Check = %v, want %q", tc.name, err, tc.want)
		}
	}
}
