package activities

import (
	"testing"

	"github.com/openbddl/bddl/bddl"
)

func TestCanonicalName(t *testing.T) {
	prob := &bddl.Problem{Name: bddl.Ident{Name: "baking_a_tray_of_cookies-0"}}
	for _, tc := range []struct{ path, want string }{
		{"lib/baking_a_tray_of_cookies/problem0.bddl", "baking_a_tray_of_cookies"},
		{"lib/cook_bacon/problem2.bddl", "cook_bacon"},
		{"other.bddl", "baking_a_tray_of_cookies"},
		{"/dev/fd/63", "baking_a_tray_of_cookies"},
		{"", "baking_a_tray_of_cookies"},
	} {
		if got := CanonicalName(tc.path, prob); got != tc.want {
			t.Errorf("CanonicalName(%q) = %q, want %q", tc.path, got, tc.want)
		}
	}
	for in, want := range map[string]string{"a-1": "a", "a-b": "a-b", "a-": "a-", "-1": "-1", "x_y-12": "x_y"} {
		if got := StripInstance(in); got != want {
			t.Errorf("StripInstance(%q) = %q, want %q", in, got, want)
		}
	}
}
