package bddl

import (
	"strings"
	"testing"
)

// TestParseSeverity: the three names, note as info, and anything else an
// error listing the names.
func TestParseSeverity(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]Severity{"error": Error, "warning": Warning, "info": Info, "note": Info} {
		if got, err := ParseSeverity(in); err != nil || got != want {
			t.Errorf("ParseSeverity(%q) = %v, %v, want %v", in, got, err, want)
		}
	}
	if _, err := ParseSeverity("bogus"); err == nil || !strings.Contains(err.Error(), SeverityNames) {
		t.Errorf("ParseSeverity(bogus) error = %v", err)
	}
}
