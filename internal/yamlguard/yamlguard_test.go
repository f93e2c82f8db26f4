package yamlguard

import (
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// laughs is a billion-laughs document of the given depth, ten aliases a level.
func laughs(depth int) string {
	var b strings.Builder
	b.WriteString("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n")
	for i := 1; i <= depth; i++ {
		b.WriteString("a" + string(rune('0'+i)) + ": &a" + string(rune('0'+i)) + " [")
		for k := range 10 {
			if k > 0 {
				b.WriteString(", ")
			}
			b.WriteString("*a" + string(rune('0'+i-1)))
		}
		b.WriteString("]\n")
	}
	return b.String()
}

// Item 15: a few hundred bytes expanding to 10^9 nodes are refused
// before anything walks them; a document with a few aliases is accepted.
func TestCheck(t *testing.T) {
	for _, tc := range []struct {
		name string
		src  string
		want string
	}{
		{"plain", "names: {apple: apple.n.01_1}\n", ""},
		{"few aliases", "base: &b {aabb: [0, 0, 0, 1, 1, 1]}\nstatic: {t1: *b, t2: *b}\n", ""},
		{"laughs 4", laughs(4), ""},
		{"laughs 9", laughs(9), "expand to more than"},
	} {
		var doc yaml.Node
		if err := yaml.Unmarshal([]byte(tc.src), &doc); err != nil {
			t.Fatal(err)
		}
		err := Check("m.yaml", &doc, DefaultLimit)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
}
