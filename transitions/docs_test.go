package transitions

import (
	"os"
	"strings"
	"testing"
)

// TestDocsFamilies checks that docs/transitions.md has a table row for
// every family and names every negative variant.
func TestDocsFamilies(t *testing.T) {
	text, err := os.ReadFile("../docs/transitions.md")
	if err != nil {
		t.Fatal(err)
	}
	section := string(text)
	for _, f := range Families {
		if !strings.Contains(section, "\n| `"+string(f)+"`") && !strings.Contains(section, ", `"+string(f)+"` |") {
			t.Errorf("the family table has no row for %s", f)
		}
	}
	for _, v := range Variants()[1:] {
		if !strings.Contains(section, "`"+v.String()+"`") {
			t.Errorf("docs/transitions.md does not name the %s variant", v)
		}
	}
}
