package episode

import (
	"bytes"
	"compress/gzip"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/openbddl/bddl/activities"
	"github.com/openbddl/bddl/kb"
	"github.com/openbddl/bddl/predicates"
)

// exampleSuccesses are the committed example episodes that succeed.
func exampleSuccesses(t *testing.T) map[string][]byte {
	t.Helper()
	files, _ := filepath.Glob("../activities/examples/*/episodes/*.jsonl*")
	out := map[string][]byte{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if res := checkExample(t, f, data); res.Success {
			out[f] = data
		}
	}
	if len(out) == 0 {
		t.Fatal("no successful example episode")
	}
	return out
}

// checkExample checks a recording of an embedded example activity.
func checkExample(t *testing.T, name string, data []byte) *Result {
	t.Helper()
	r, err := NewReader(bytes.NewReader(data), name)
	if err != nil {
		return &Result{Error: err.Error()}
	}
	act, ok := activities.Examples().Find(r.Header().Activity)
	if !ok {
		t.Fatalf("%s: activity %s is not an example", name, r.Header().Activity)
	}
	prog, err := predicates.Compile(act.Problem, kb.Default(), predicates.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return Check(context.Background(), prog, r, CheckOptions{})
}

// TestTruncatedNeverSucceeds cuts every successful example at every
// byte (for compressed files: the compressed bytes) and checks that no
// cut is reported as a success, strict or lenient. The examples declare
// their number of steps, so a cut at a line boundary is detected too.
func TestTruncatedNeverSucceeds(t *testing.T) {
	for name, data := range exampleSuccesses(t) {
		for cut := 0; cut < len(data); cut++ {
			if len(bytes.TrimSpace(data[cut:])) == 0 {
				continue // only the final line ending is cut: nothing is lost
			}
			for _, lenient := range []bool{false, true} {
				res := checkExampleOpts(t, name, data[:cut], lenient)
				if res.Success {
					t.Fatalf("%s cut at byte %d of %d (lenient %v) reported a success", name, cut, len(data), lenient)
				}
			}
		}
	}
}

// TestCorruptedNeverSucceeds damages every successful example at every
// byte: a NUL byte inserted into plain text (which breaks its JSON
// wherever it lands), one bit flipped in compressed data (caught by the
// gzip checksum; the gzip header's time and OS bytes carry no data).
// Plain text damaged into other valid JSON (a digit changed) cannot be
// told from a real recording; a recording that must be checked for that
// is compressed. No damaged file is a success.
func TestCorruptedNeverSucceeds(t *testing.T) {
	for name, data := range exampleSuccesses(t) {
		gz := len(data) > 1 && data[0] == 0x1f && data[1] == 0x8b
		for i := 0; i < len(data); i++ {
			var bad []byte
			if gz {
				if 4 <= i && i < 10 {
					continue // the header's time, flags and OS: metadata, not data
				}
				bad = bytes.Clone(data)
				bad[i] ^= 1 << (i % 8)
			} else {
				bad = append(append(bytes.Clone(data[:i]), 0), data[i:]...)
			}
			if res := checkExampleOpts(t, name, bad, false); res.Success {
				t.Fatalf("%s damaged at byte %d reported a success", name, i)
			}
		}
	}
}

func checkExampleOpts(t *testing.T, name string, data []byte, lenient bool) *Result {
	t.Helper()
	r, err := NewReader(bytes.NewReader(data), name)
	if err != nil {
		return &Result{Error: err.Error()}
	}
	act, ok := activities.Examples().Find(r.Header().Activity)
	if !ok {
		return &Result{Error: "unknown activity"}
	}
	prog := exampleProgram(t, act)
	return Check(context.Background(), prog, r, CheckOptions{Lenient: lenient})
}

var examplePrograms = map[string]*predicates.Program{}

func exampleProgram(t *testing.T, act *activities.Activity) *predicates.Program {
	if p := examplePrograms[act.Path]; p != nil {
		return p
	}
	p, err := predicates.Compile(act.Problem, kb.Default(), predicates.Options{})
	if err != nil {
		t.Fatal(err)
	}
	examplePrograms[act.Path] = p
	return p
}

// TestGzipTransparent reads the same recording plain and compressed.
func TestGzipTransparent(t *testing.T) {
	data, err := os.ReadFile("testdata/decode/every-field.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(data)
	zw.Close()
	plain := checkBytes(t, "x", data, CheckOptions{})
	comp := checkBytes(t, "x", gz.Bytes(), CheckOptions{})
	if plain.Reason != comp.Reason || plain.Success != comp.Success || plain.Steps != comp.Steps {
		t.Errorf("gzip changes the result: %q vs %q", plain.Reason, comp.Reason)
	}
}

// TestLenientLeavesStateUntouched checks that a skipped step changes
// nothing: a bad step that would have made the goal true, placed between
// good steps, leaves the result as if the line were absent.
func TestLenientLeavesStateUntouched(t *testing.T) {
	head := `{"bddl_episode":1,"activity":"episode_fields","closed_world":true}` + "\n" + `{"step":0}` + "\n"
	// The bad line would set cooked before failing on its second atom.
	bad := `{"step":1,"facts":[["cooked","apple.n.01_1"],["cooked","no_such.n.01_1"]]}` + "\n"
	tail := `{"step":2}` + "\n"
	with := checkBytes(t, "x", []byte(head+bad+tail), CheckOptions{Lenient: true, PerStep: true})
	without := checkBytes(t, "x", []byte(head+tail), CheckOptions{PerStep: true})
	if with.SkippedSteps != 1 {
		t.Fatalf("skipped %d steps, want 1", with.SkippedSteps)
	}
	if got, want := with.PerStep[1].Conjuncts[0], without.PerStep[1].Conjuncts[0]; got != want || got != predicates.False {
		t.Errorf("(cooked apple) after a skipped step = %v, want %v as without the step", got, want)
	}
}

// FuzzDecode feeds arbitrary bytes to the reader and the checker: no
// panic; a success only for input read without error; and input that
// reads without error writes and reads back to the same values.
func FuzzDecode(f *testing.F) {
	for _, dir := range []string{"testdata/decode/*.jsonl", "testdata/errors/*.jsonl"} {
		files, _ := filepath.Glob(dir)
		for _, file := range files {
			data, _ := os.ReadFile(file)
			f.Add(data)
		}
	}
	prog := testProgram(f, nil)
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, lenient := range []bool{false, true} {
			r, err := NewReader(bytes.NewReader(data), "fuzz.jsonl")
			if err != nil {
				return
			}
			res := Check(context.Background(), prog, r, CheckOptions{Lenient: lenient, PerStep: true})
			if res.Success && (res.Error != "" || res.SkippedSteps > 0) {
				t.Fatalf("success with error %q and %d skipped steps", res.Error, res.SkippedSteps)
			}
		}
		h, steps, err := ReadAll(bytes.NewReader(data), "fuzz.jsonl")
		if err != nil {
			return
		}
		var buf bytes.Buffer
		hh := *h
		hh.Steps = 0
		w, err := NewWriter(&buf, &hh)
		if err != nil {
			t.Fatalf("NewWriter of a header that was read: %v", err)
		}
		for _, s := range steps {
			if err := w.WriteStep(s); err != nil {
				t.Fatalf("WriteStep of a step that was read: %v", err)
			}
		}
		w.Close()
		h2, steps2, err := ReadAll(bytes.NewReader(buf.Bytes()), "fuzz.jsonl")
		if err != nil {
			t.Fatalf("reading what was written: %v\n%s", err, buf.Bytes())
		}
		h.Steps = 0
		if !cmpEqual(valuesOf(h, steps), valuesOf(h2, steps2)) {
			t.Fatalf("round trip changed the values\n%s", buf.Bytes())
		}
	})
}

// TestGeneralInput reads what recordings made elsewhere contain: a line
// longer than the read buffer, instance names written as in goals (with
// "?") or in another case, and inroom facts naming room types the
// definition never mentions.
func TestGeneralInput(t *testing.T) {
	long := bytes.Repeat([]byte("x"), 300<<10)
	data := []byte(`{"bddl_episode":1,"activity":"episode_fields","closed_world":true}` + "\n" +
		`{"step":0,"note":"` + string(long) + `","facts":[["inroom","?Sink.N.01_1","kitchen"],["inroom","apple.n.01_1","garage"]]}` + "\n" +
		`{"step":1,"objects":{"?apple.n.01_1":{"max_temperature":90}}}` + "\n")
	res := checkBytes(t, "general.jsonl", data, CheckOptions{PerStep: true})
	if res.Error != "" || res.Steps != 2 {
		t.Fatalf("error %q after %d steps", res.Error, res.Steps)
	}
	if res.PerStep[1].Conjuncts[0] != predicates.True {
		t.Errorf("(cooked apple) at step 1 = %v, want true", res.PerStep[1].Conjuncts[0])
	}
	if len(res.Warnings) != 1 {
		t.Errorf("warnings %q, want one for the unknown field", res.Warnings)
	}
}

// TestReflexiveFactWarns checks that a recorded true fact relating an
// object to itself by a kinematic relation is read (decided False, as the
// simulator can never make it true) with a warning naming line and step,
// and that a false one, or a non-kinematic one, gives none.
func TestReflexiveFactWarns(t *testing.T) {
	data := []byte(`{"bddl_episode":1,"activity":"episode_fields","closed_world":true}` + "\n" +
		`{"step":0,"false":[["ontop","apple.n.01_1","apple.n.01_1"]]}` + "\n" +
		`{"step":4,"facts":[["ontop","apple.n.01_1","apple.n.01_1"]]}` + "\n")
	res := checkBytes(t, "reflexive.jsonl", data, CheckOptions{})
	if res.Error != "" {
		t.Fatalf("error %q", res.Error)
	}
	want := "line 3, step 4: recorded fact (ontop apple.n.01_1 apple.n.01_1) is true, but ontop never relates an object to itself: decided False"
	if len(res.Warnings) != 1 || res.Warnings[0] != want {
		t.Fatalf("warnings %q, want [%q]", res.Warnings, want)
	}
}

// TestHeaderByteOrderMark checks that a UTF-8 byte-order mark before the
// header line is accepted and ignored.
func TestHeaderByteOrderMark(t *testing.T) {
	data := []byte("\xEF\xBB\xBF" + `{"bddl_episode":1,"activity":"episode_fields","closed_world":true}` + "\n" + `{"step":0}` + "\n")
	res := checkBytes(t, "bom.jsonl", data, CheckOptions{})
	if res.Error != "" || res.Steps != 1 {
		t.Fatalf("error %q after %d steps", res.Error, res.Steps)
	}
}
