package transitions

import (
	"os"
	"strings"
	"testing"
)

// TestREADMEFamilies checks that the README's transition section has a
// table row for every family and names every negative variant.
func TestREADMEFamilies(t *testing.T) {
	text, err := os.ReadFile("../docs/transitions.md")
	if err != nil {
		t.Fatal(err)
	}
	s := string(text)
	i := strings.Index(s, "## Transition rules (`transitions`)")
	if i < 0 {
		t.Fatal("docs/transitions.md has no transition rules section")
	}
	section := s[i:]
	if j := strings.Index(section[3:], "\n## "); j >= 0 {
		section = section[:j+3]
	}
	for _, f := range Families {
		if !strings.Contains(section, "\n| `"+string(f)+"`") && !strings.Contains(section, ", `"+string(f)+"` |") {
			t.Errorf("the README's family table has no row for %s", f)
		}
	}
	for _, v := range Variants()[1:] {
		if !strings.Contains(section, "`"+v.String()+"`") {
			t.Errorf("the README does not name the %s variant", v)
		}
	}
}
