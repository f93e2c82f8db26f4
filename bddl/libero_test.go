package bddl

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// liberoFiles lists the shared LIBERO definitions: $BDDL_LIBERO, else
// ../shared/libero from the repository root; missing data fails under
// CI=true and skips otherwise.
func liberoFiles(t testing.TB) []string {
	t.Helper()
	dir := os.Getenv("BDDL_LIBERO")
	if dir == "" {
		dir = filepath.Join("..", "..", "shared", "libero")
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*", "*.bddl"))
	if len(files) == 0 {
		if os.Getenv("CI") == "true" {
			t.Fatalf("no LIBERO definitions at %s (set BDDL_LIBERO)", dir)
		}
		t.Skipf("no LIBERO definitions at %s (set BDDL_LIBERO)", dir)
	}
	return files
}

// liberoSummary is what a LIBERO parse means, positions aside, so a
// formatted file can be compared with its source.
func liberoSummary(p *Problem) string {
	var b strings.Builder
	b.WriteString(p.Name.Name + "|" + p.Domain.Name + "|" + p.Libero.Language + "\n")
	for _, r := range p.Libero.Regions {
		b.WriteString(r.Ref() + " " + numberList(nil))
		for _, q := range r.Ranges {
			b.WriteString(numberList(q.V[:]))
		}
		for _, y := range r.Yaw {
			b.WriteString(numberList(y.V[:]))
		}
		b.WriteString("\n")
	}
	for _, ds := range [][]*ObjectDecl{p.Libero.Fixtures, p.Objects} {
		for _, d := range ds {
			for _, i := range d.Instances {
				b.WriteString(i.Name + " ")
			}
			b.WriteString("- " + d.Type.Name + "\n")
		}
	}
	for _, o := range p.Libero.ObjOfInterest {
		b.WriteString(o.Name + " ")
	}
	for _, f := range p.Init {
		b.WriteString(String(f) + "\n")
	}
	b.WriteString(String(p.Goal))
	return b.String()
}

func TestLiberoCorpusParsesAndFormatsToAFixedPoint(t *testing.T) {
	for _, f := range liberoFiles(t) {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if !IsLibero(src) {
			t.Errorf("%s: not detected as LIBERO", f)
		}
		file, diags := ParseFile(f, src)
		if len(diags) > 0 {
			t.Errorf("%s: %v", f, diags)
			continue
		}
		p := file.Problem
		if p == nil || p.Libero == nil || p.Libero.Language == "" || len(p.Libero.Regions) == 0 || p.Goal == nil {
			t.Errorf("%s: incomplete tree", f)
			continue
		}
		out := Format(file)
		again, diags := ParseFile(f+" (formatted)", out)
		if diags.HasErrors() {
			t.Errorf("%s: formatted text does not parse: %v", f, diags)
			continue
		}
		if got, want := liberoSummary(again.Problem), liberoSummary(p); got != want {
			t.Errorf("%s: formatting changed the definition:\n%s\nwant\n%s", f, got, want)
		}
		if out2 := Format(again); !bytes.Equal(out, out2) {
			t.Errorf("%s: fmt is not a fixed point", f)
		}
	}
}

const liberoWithComments = `; header comment
(define (problem LIBERO_Tabletop_Manipulation) ; the class
  (:domain robosuite)
  (:language pick up the bowl) ; instruction
  (:regions
    ; a region
    (bowl_region (:target main_table) (:ranges ((-0.1 -0.1 0.1 0.1))) (:yaw_rotation ((0 pi))) (:rgba (0 0 1 0)))
  )
  (:fixtures main_table - table)
  (:objects bowl_1 - akita_black_bowl ; the bowl
  )
  (:obj_of_interest bowl_1)
  (:init (On bowl_1 main_table_bowl_region))
  ; the goal
  (:goal (And (Up bowl_1)))
  (:custom (kept as is) ; inside
  )
)
; trailer
`

func TestLiberoFormatKeepsComments(t *testing.T) {
	f, diags := Options{Mode: Reference}.ParseFile("c.bddl", []byte(liberoWithComments))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	out := Format(f)
	for _, c := range []string{"; header comment", "; the class", "; instruction", "; a region", "; the bowl", "; the goal", "; inside", "; trailer"} {
		if n := strings.Count(string(out), c); n != 1 {
			t.Errorf("comment %q printed %d times in\n%s", c, n, out)
		}
	}
	if !strings.Contains(string(out), "(:yaw_rotation (\n                (0 pi)") {
		t.Errorf("yaw written as a Python expression not kept:\n%s", out)
	}
	f2, _ := Options{Mode: Reference}.ParseFile("c2.bddl", out)
	if out2 := Format(f2); !bytes.Equal(out, out2) {
		t.Errorf("not a fixed point:\n%s\n---\n%s", out, out2)
	}
}

func TestLiberoReadingPolicy(t *testing.T) {
	src := []byte(liberoWithComments)
	_, strict := ParseFile("c.bddl", src)
	_, lenient := Options{Mode: Reference}.ParseFile("c.bddl", src)
	if len(strict) != 1 || strict[0].Severity != Error || strict[0].Code != codeUnknownSection {
		t.Errorf("strict: %v, want one unknown-section error", strict)
	}
	if len(lenient) != 1 || lenient[0].Severity != Warning || !strings.Contains(lenient[0].Summary, "LIBERO prints a note and ignores it") {
		t.Errorf("reference: %v, want one warning saying what LIBERO does", lenient)
	}
}

func TestIsLibero(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want bool
	}{
		{"(define (problem x) (:domain robosuite))", true},
		{"(define (problem x) (:DOMAIN\n\tRoboSuite) )", true},
		{"(define (problem x) (:domain robosuite_v2))", false},
		{"(define (problem x) (:domain robosuit) (:regions))", true},
		{"(define (problem x) (:LANGUAGE pick it up))", true},
		{"(define (problem x) (:languages x))", false},
		{"(define (problem x) (:objects a - regions:x))", false},
		{"(define (problem x) (:domain omnigibson))", false},
		{"(:domain", false},
		{"", false},
	} {
		if got := IsLibero([]byte(tc.src)); got != tc.want {
			t.Errorf("IsLibero(%q) = %v, want %v", tc.src, got, tc.want)
		}
	}
}

func TestParseDialect(t *testing.T) {
	for in, want := range map[string]Dialect{"": DialectAuto, "auto": DialectAuto, "libero": DialectLibero, "behavior1k": DialectBehavior} {
		if got, err := ParseDialect(in); err != nil || got != want {
			t.Errorf("ParseDialect(%q) = %v, %v", in, got, err)
		}
	}
	if _, err := ParseDialect("pddl"); err == nil {
		t.Error("ParseDialect(pddl) accepted")
	}
}

// FuzzParseLibero checks, on any input read as LIBERO, that the parser
// does not panic, that diagnostics point inside the source, and that a
// file without errors formats to a fixed point.
func FuzzParseLibero(f *testing.F) {
	f.Add(liberoWithComments)
	f.Add("(define (problem p) (:domain robosuite) (:regions (r (:target t) (:ranges ((1 2 3)))))")
	f.Add("(define (problem p) (:domain robosuite) (:goal (And (On a b) (Or x))))")
	f.Add("(define (problem p) (:domain robosuite) (:language a, b (c)) (:init (On a)) ) )")
	f.Add("(define (problem p) (:domain robosuite) (:regions (r (:yaw_rotation ((-pi/2 2*pi))))))")
	f.Fuzz(func(t *testing.T, src string) {
		file, diags := Options{Dialect: DialectLibero}.ParseFile("f.bddl", []byte(src))
		for _, d := range diags {
			if d.Subject.Start.Offset < 0 || int(d.Subject.End.Offset) > len(src)+1 {
				t.Fatalf("diagnostic outside the source: %v", d)
			}
		}
		if diags.HasErrors() || file.Problem == nil {
			return
		}
		out := Format(file)
		again, d2 := Options{Dialect: DialectLibero}.ParseFile("g.bddl", out)
		if d2.HasErrors() {
			t.Fatalf("formatted text does not parse: %v\n%s", d2, out)
		}
		if out2 := Format(again); !bytes.Equal(out, out2) {
			t.Fatalf("not a fixed point:\n%s\n---\n%s", out, out2)
		}
	})
}
