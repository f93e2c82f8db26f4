package episode

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/kb"
	"github.com/openbddl/bddl/predicates"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

var testProblem = sync.OnceValue(func() *bddl.Problem {
	src, err := os.ReadFile("testdata/activity.bddl")
	if err != nil {
		panic(err)
	}
	p, diags := bddl.ParseProblem("testdata/activity.bddl", src)
	if diags.HasErrors() {
		panic(diags)
	}
	return p
})

// testProgram compiles the test activity with the wildcard expansion the
// header implies, as bddl check does.
func testProgram(tb testing.TB, h *Header) *predicates.Program {
	tb.Helper()
	opts := predicates.Options{}
	if h != nil {
		opts.Wildcards = Wildcards(testProblem(), h)
	}
	p, err := predicates.Compile(testProblem(), kb.Default(), opts)
	if err != nil {
		tb.Fatal(err)
	}
	return p
}

// checkBytes checks a recording of the test activity.
func checkBytes(tb testing.TB, name string, data []byte, opts CheckOptions) *Result {
	tb.Helper()
	r, err := NewReader(bytes.NewReader(data), name)
	if err != nil {
		return &Result{Episode: name, Error: err.Error(), Reason: err.Error()}
	}
	return Check(context.Background(), testProgram(tb, r.Header()), r, opts)
}

func golden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("%s differs (-want +got):\n%s", path, diff)
	}
}

// canonical re-encodes a recording with the Writer.
func canonical(tb testing.TB, h *Header, steps []*Step) []byte {
	tb.Helper()
	var buf bytes.Buffer
	hh := *h
	hh.Steps = 0
	w, err := NewWriter(&buf, &hh)
	if err != nil {
		tb.Fatal(err)
	}
	for _, s := range steps {
		if err := w.WriteStep(s); err != nil {
			tb.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

// TestDecodeGolden reads every valid recording of testdata/decode as
// values (re-encoded canonically: every field as the reader understood
// it) and checks it against the test activity (the state the fields
// produce, through the goal's and each conjunct's truth per step, the
// scores and explanations).
func TestDecodeGolden(t *testing.T) {
	files, _ := filepath.Glob("testdata/decode/*.jsonl")
	if len(files) == 0 {
		t.Fatal("no testdata/decode/*.jsonl")
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			h, steps, err := ReadAll(bytes.NewReader(data), file)
			if err != nil {
				t.Fatalf("ReadAll: %v", err)
			}
			canon := canonical(t, h, steps)
			// The canonical form reads back to the same values.
			h2, steps2, err := ReadAll(bytes.NewReader(canon), file)
			if err != nil {
				t.Fatalf("ReadAll(canonical): %v", err)
			}
			h.Steps = 0
			if diff := cmp.Diff(valuesOf(h, steps), valuesOf(h2, steps2), cmpEpisodes...); diff != "" {
				t.Errorf("canonical form reads back differently (-first +second):\n%s", diff)
			}
			res := checkBytes(t, file, data, CheckOptions{PerStep: true})
			js, err := json.MarshalIndent(res, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			golden(t, strings.TrimSuffix(file, ".jsonl")+".golden",
				"-- canonical --\n"+string(canon)+"-- check --\n"+string(js)+"\n")
		})
	}
}

// TestErrorsGolden checks every bad recording of testdata/errors: strict
// reading stops with an error naming file, line, step and field; lenient
// reading skips what it can; neither is ever a success.
func TestErrorsGolden(t *testing.T) {
	files, _ := filepath.Glob("testdata/errors/*.jsonl")
	if len(files) == 0 {
		t.Fatal("no testdata/errors/*.jsonl")
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			strict := checkBytes(t, file, data, CheckOptions{})
			lenient := checkBytes(t, file, data, CheckOptions{Lenient: true})
			if strict.Error == "" {
				t.Errorf("strict check of %s gave no error: %s", file, strict.Reason)
			}
			if strict.Success || lenient.Success {
				t.Errorf("%s: a bad recording was reported as a success (strict %v, lenient %v)", file, strict.Success, lenient.Success)
			}
			got := fmt.Sprintf("strict:  %s\nlenient: skipped %d, error %q\n         %s\n",
				strict.Error, lenient.SkippedSteps, lenient.Error, lenient.Reason)
			golden(t, strings.TrimSuffix(file, ".jsonl")+".golden", got)
		})
	}
}

// TestErrorMessage pins the message format of the example.
func TestErrorMessage(t *testing.T) {
	e := &Error{File: "ep.jsonl", Line: 17, Step: 16, HasStep: true, Field: "objects.apple.n.01_1.aabb", Msg: "min x 0.5 > max x 0.2"}
	if got, want := e.Error(), "ep.jsonl:17: step 16: objects.apple.n.01_1.aabb: min x 0.5 > max x 0.2"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	data, err := os.ReadFile("testdata/errors/box-min-above-max.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	res := checkBytes(t, "ep.jsonl", data, CheckOptions{})
	if want := "ep.jsonl:18: step 16: objects.apple.n.01_1.aabb: min x 0.5 > max x 0.2"; res.Error != want {
		t.Errorf("error = %q, want %q", res.Error, want)
	}
}
