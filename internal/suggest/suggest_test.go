package suggest

import (
	"strings"
	"testing"
)

func TestDistance(t *testing.T) {
	t.Parallel()
	tests := []struct {
		a, b  string
		limit int
		want  int
	}{
		{"", "", 2, 0},
		{"kb", "kb", 2, 0},
		{"kitten", "sitting", 5, 3},
		{"kitten", "sitting", 2, 3}, // over the limit: limit+1
		{"a", "abcdef", 2, 3},
		{strings.Repeat("a", 100), strings.Repeat("a", 99) + "b", 2, 1}, // longer than the stack buffer
	}
	for _, tt := range tests {
		if got := Distance(tt.a, tt.b, tt.limit); got != tt.want {
			t.Errorf("Distance(%q, %q, %d) = %d, want %d", tt.a, tt.b, tt.limit, got, tt.want)
		}
	}
}

func TestDidYouMean(t *testing.T) {
	t.Parallel()
	keys := []string{"kb", "activities", "defaults"}
	tests := []struct {
		name  string
		cands []string
		want  string
	}{
		{"activitis", keys, "; did you mean activities?"},
		{"kbs", keys, "; did you mean kb?"},
		{"zzzzzzzz", keys, ""},
		{"ab", []string{"aa", "bb", "cc"}, "; did you mean one of aa, bb?"}, // the closest only
		{"check", []string{"check-init", "checks", "checks"}, "; did you mean checks?"},
		{"episode", []string{"episode-convert"}, "; did you mean episode-convert?"}, // contains it
	}
	for _, tt := range tests {
		if got := DidYouMean(tt.name, tt.cands); got != tt.want {
			t.Errorf("DidYouMean(%q, %v) = %q, want %q", tt.name, tt.cands, got, tt.want)
		}
	}
}
