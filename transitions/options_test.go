package transitions

import (
	"reflect"
	"strings"
	"testing"
)

func TestParseOptions(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Options
		err  string
	}{
		{"", Options{}, ""},
		{"same-step, gpu-dynamics", Options{SameStep: true, GPUDynamics: true}, ""},
		{"max-anonymous=-1,fixed=sink.n.01_1,movable=table.n.02_1", Options{MaxAnonymous: -1,
			FixedBase: map[string]bool{"sink.n.01_1": true, "table.n.02_1": false}}, ""},
		{"max-anonymous=x", Options{}, "whole number"},
		{"max-anonymous=-2", Options{}, "whole number"},
		{"same-step=1", Options{}, "unknown transition option"},
		{"fixed=", Options{}, "unknown transition option"},
		{"warp", Options{}, "unknown transition option"},
	} {
		got, err := ParseOptions(c.in)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%q: error %v, want %q", c.in, err, c.err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q: %+v, %v; want %+v", c.in, got, err, c.want)
		}
	}
}

// FuzzParseOptions: no input panics, and what parses prints back to a
// list that parses to the same options.
func FuzzParseOptions(f *testing.F) {
	for _, s := range []string{"", "same-step", "gpu-dynamics,max-anonymous=3", "fixed=a,movable=b", "x=,=y", ",,"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		o, err := ParseOptions(s)
		if err != nil {
			return
		}
		back, err := ParseOptions(o.String())
		if err != nil || !reflect.DeepEqual(norm(back), norm(o)) {
			t.Fatalf("%q → %q → %+v, %v; want %+v", s, o.String(), back, err, o)
		}
	})
}

// norm makes an empty FixedBase map nil, as String cannot tell them apart.
func norm(o Options) Options {
	if len(o.FixedBase) == 0 {
		o.FixedBase = nil
	}
	return o
}
