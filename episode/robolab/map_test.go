package robolab

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseMap(t *testing.T) {
	m := testMap(t)
	if m.Activity != "putting_the_apple_in_the_bowl.bddl" || m.Names["robot"] != "agent.n.01_1" || len(m.Names) != 5 {
		t.Errorf("names %v activity %q", m.Names, m.Activity)
	}
	cab := m.Static["cabinet.n.01_1"]
	if cab == nil || len(cab.Joints) != 1 || cab.Joints[0].Name != "drawer" || cab.AABB.Max[2] != 0.9 {
		t.Errorf("static cabinet %+v", cab)
	}
	// Joints keep the order written: they are joint_position's columns.
	m2, err := ParseMap("m.yaml", []byte("static:\n  cabinet.n.01_1:\n    joints: {z: {q: 0, lo: 0, hi: 1}, a: {q: 1, lo: 0, hi: 1}, m: {q: 0.5, lo: 0, hi: 1}}\n"))
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, j := range m2.Static["cabinet.n.01_1"].Joints {
		order = append(order, j.Name)
	}
	if strings.Join(order, ",") != "z,a,m" {
		t.Errorf("joint order %v, want as written (z, a, m)", order)
	}
	if m3, err := ParseMap("m.yaml", []byte("names:\n  camera: null\n")); err != nil || m3.Names["camera"] != "" {
		t.Errorf("null name: %v %v", m3, err)
	}
}

func TestParseMapErrors(t *testing.T) {
	tests := []struct{ yaml, want string }{
		{"", "m.yaml: empty"},
		{"[1, 2]", "m.yaml:1:1: expected a mapping with names: and static:"},
		{"names: {a: b}\nextra: 1\n", "m.yaml:2:1: extra: unknown section"},
		{"names: [a, b]\n", "m.yaml:1:8: names: expected a mapping"},
		{"names:\n  a: apple.n.01_1\n  b: Apple.n.01_1\n", "m.yaml:3:6: names.b: Apple.n.01_1 is already the instance of a"},
		{"names:\n  a: apple.n.01_1\n  a: bowl.n.01_1\n", "m.yaml"},
		{"names:\n  a: 3\n", "m.yaml:2:6: names.a: expected a BDDL instance name"},
		{"activity: [x]\n", "m.yaml:1:11: activity: expected an activity name"},
		{"static: [1]\n", "m.yaml:1:9: static: expected a mapping"},
		{"static:\n  table.n.02_1:\n    aabb: [1, 0, 0, 0, 1, 1]\n", "m.yaml:2: static.table.n.02_1.aabb: min x 1 > max x 0"},
		{"static:\n  table.n.02_1:\n    pos: [1, 2]\n", "m.yaml:2: static.table.n.02_1.pos"},
		{"static:\n  a.n.01_1: {}\n  b.n.01_1:\n    joints: {d: {q: 0, lo: 1, hi: 0}}\n", "m.yaml:3: static.b.n.01_1.joints"},
		{"static:\n  t.n.01_1: {aabb: [.nan, 0, 0, 1, 1, 1]}\n", "m.yaml:2:3: static: line 2: .nan is not a JSON value"},
		{"names: {a: b\n", "m.yaml: "},
	}
	for _, tc := range tests {
		_, err := ParseMap("m.yaml", []byte(tc.yaml))
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want one starting %q", tc.yaml, err, tc.want)
		}
	}
}

func TestLoadMap(t *testing.T) {
	dir := t.TempDir()
	if _, err := LoadMap(dir); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("a directory: %v", err)
	}
	big := filepath.Join(dir, "big.yaml")
	if err := os.WriteFile(big, make([]byte, maxMapSize+1), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadMap(big); err == nil || !strings.Contains(err.Error(), "larger than the 16 MiB limit") {
		t.Errorf("a huge file: %v", err)
	}
}

func FuzzParseMap(f *testing.F) {
	seed, err := os.ReadFile("testdata/names.yaml")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(seed)
	f.Add([]byte("names: {a: b}\nstatic: {x.n.01_1: {joints: {j: {q: 0, lo: 0, hi: 1}}}}"))
	f.Add([]byte("a: &x [*x]"))
	// The alias bomb of item 15 (a smaller one: seeds run in every test).
	f.Add([]byte("a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\nf: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]\nstatic: {t.n.01_1: {x: *f}}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := ParseMap("f.yaml", data)
		if err == nil && m == nil {
			t.Fatal("nil map without error")
		}
	})
}

// TestMapActivityRef: the map's activity: is a file or activity
// directory relative to the map (name.bddl there too), else a name; a
// path is confined to the map's directory (item 7).
func TestMapActivityRef(t *testing.T) {
	names := filepath.Join("testdata", "names.yaml")
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.bddl")
	hasFIFO := mkfifo(fifo) == nil
	if err := os.Symlink("/etc/passwd", filepath.Join(dir, "passwd.bddl")); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		file, activity, want, err string
	}{
		{names, "putting_the_apple_in_the_bowl.bddl", filepath.Join("testdata", "putting_the_apple_in_the_bowl.bddl"), ""},
		{names, "putting_the_apple_in_the_bowl", filepath.Join("testdata", "putting_the_apple_in_the_bowl.bddl"), ""}, // .bddl beside the map
		{names, "tidying_the_living_room", "tidying_the_living_room", ""},                                             // a name
		{names, "defs/missing.bddl", "", "no such file"},
		{names, "/abs/x.bddl", "", "no such file"},
		{names, "/etc/passwd", "", "outside the allowed directories"},
		{names, "../../../../../../../../etc/passwd", "", "outside the allowed directories"},
		{names, "/dev/zero", "", "a character device"},
		{filepath.Join(dir, "m.yaml"), "passwd.bddl", "", "outside the allowed directories"},
		{filepath.Join(dir, "m.yaml"), "fifo.bddl", "", "a FIFO"},
		{names, "", "", ""},
	} {
		if strings.HasPrefix(tc.activity, "fifo") && !hasFIFO {
			continue
		}
		m := &Map{File: tc.file, Activity: tc.activity}
		got, err := m.ActivityRef()
		switch {
		case tc.err == "" && (err != nil || got != tc.want):
			t.Errorf("activity: %s → %q, %v; want %q", tc.activity, got, err, tc.want)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("activity: %s → %q, %v; want error %q", tc.activity, got, err, tc.err)
		case err != nil && strings.Contains(err.Error(), "root:"):
			t.Errorf("activity: %s: the error shows the file's content: %v", tc.activity, err)
		}
	}
}

// Item 15: a map whose aliases expand to 10^9 nodes is refused at once.
func TestMapAliasBomb(t *testing.T) {
	var b strings.Builder
	b.WriteString("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n")
	for i := 1; i <= 9; i++ {
		fmt.Fprintf(&b, "a%d: &a%d [", i, i)
		for k := range 10 {
			if k > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "*a%d", i-1)
		}
		b.WriteString("]\n")
	}
	fmt.Fprintf(&b, "static:\n  table.n.02_1: {aabb: [0, 0, 0, 1, 1, 1], x: *a9}\n")
	_, err := ParseMap("bomb.yaml", []byte(b.String()))
	if err == nil || !strings.Contains(err.Error(), "YAML aliases expand to more than") {
		t.Fatalf("error %v", err)
	}
}
