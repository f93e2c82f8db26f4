package activities

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/kb"
)

// TestPartialTrees runs every rule on the partial trees the parser builds
// from broken files (the bddl package's error and diagnostic cases, and
// every prefix of a rule case): no rule may panic, whatever the tree.
// ValidateSource would not run the rules on these; Analyze does.
func TestPartialTrees(t *testing.T) {
	base := mustTestKB(t)
	var files []string
	for _, root := range []string{filepath.Join("..", "bddl", "testdata"), filepath.Join("testdata", "rules")} {
		_ = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(path, ".bddl") {
				files = append(files, path)
			}
			return nil
		})
	}
	if len(files) == 0 {
		t.Skip("no test files")
	}
	analyze := func(name string, src []byte) {
		defer func() {
			if r := recover(); r != nil {
				t.Errorf("%s: panic: %v", name, r)
			}
		}()
		f, _ := bddl.ParseFile(name, src)
		if f.Problem != nil {
			Analyze(f.Problem, base)
			Analyze(f.Problem, kb.Default())
		}
	}
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		analyze(path, src)
		if strings.Contains(path, "rules") {
			for cut := 0; cut < len(src); cut += 37 {
				analyze(path, src[:cut])
			}
		}
	}
}

func TestValidateNil(t *testing.T) {
	if fs := Validate(nil, nil); fs != nil {
		t.Errorf("Validate(nil) = %v", fs)
	}
}

// FuzzValidate: no input makes validation panic, and every finding points
// inside the source.
func FuzzValidate(f *testing.F) {
	_ = filepath.WalkDir(filepath.Join("testdata", "rules"), func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".bddl") {
			if src, err := os.ReadFile(path); err == nil {
				f.Add(src)
			}
		}
		return nil
	})
	base, err := testKB()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		file, _ := bddl.ParseFile("fuzz/problem0.bddl", src)
		if file.Problem == nil {
			return
		}
		for _, fd := range Validate(file.Problem, base) {
			if r := fd.Subject; r.Start.Offset < 0 || int(r.Start.Offset) > len(src) || int(r.End.Offset) > len(src) {
				t.Errorf("finding %v: range %v outside the %d-byte source", fd.Error(), r, len(src))
			}
		}
	})
}
