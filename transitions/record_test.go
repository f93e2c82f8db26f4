package transitions

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openbddl/bddl/episode"
	"github.com/openbddl/bddl/internal/fsutil"
	"github.com/openbddl/bddl/kb"
)

func TestInstanceSynset(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"apple.n.01_2", "apple.n.01"},
		{"apple.n.01", "apple.n.01"},
		{"apple.n.01_", "apple.n.01_"},
		{"apple.n.01_x", "apple.n.01_x"},
		{"noscore", "noscore"},
	} {
		if got := instanceSynset(tc.in); got != tc.want {
			t.Errorf("instanceSynset(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestParseVariant(t *testing.T) {
	for _, v := range Variants() {
		if got, ok := ParseVariant(v.String()); !ok || got != v {
			t.Errorf("ParseVariant(%q) = %v, %v", v, got, ok)
		}
	}
	if _, ok := ParseVariant("odd"); ok {
		t.Error("ParseVariant(odd) found a variant")
	}
	if strings.Contains(VariantNames(), "positive") {
		t.Errorf("VariantNames lists the positive case: %s", VariantNames())
	}
}

// TestSampleEpisodeChecks: a rule's sample episode, written with its
// outcome, checks as a success; written with rules off it does not,
// unless the rules are applied (EpisodeChecker), which reports the
// firing, or added to it (Applier).
func TestSampleEpisodeChecks(t *testing.T) {
	base := kb.Default()
	r, ok := FindRule(base, "sugar_cookies")
	if !ok {
		t.Skip("the default knowledge base has no sugar_cookies rule")
	}
	opts := SampleOptions{Seed: 1, Variant: Positive}
	res, err := Sample(base, r, opts)
	if err != nil {
		t.Fatal(err)
	}
	activity := res.Program.Problem().Name.Name
	write := func(rulesOff bool) []byte {
		var buf bytes.Buffer
		if err := WriteSampleEpisode(&buf, r, res, activity, opts, rulesOff); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	check := func(data []byte, ec *EpisodeChecker) *episode.Result {
		rd, err := episode.NewReader(bytes.NewReader(data), "sample.jsonl")
		if err != nil {
			t.Fatal(err)
		}
		if ec != nil {
			return ec.Check(context.Background(), res.Program, rd, episode.CheckOptions{})
		}
		return episode.Check(context.Background(), res.Program, rd, episode.CheckOptions{})
	}
	if got := check(write(false), nil); !got.Success {
		t.Errorf("with the outcome: %s", got.Reason)
	}
	off := write(true)
	if got := check(off, nil); got.Success {
		t.Error("rules off: success without the rules applied")
	}
	got := check(off, NewEpisodeChecker(base))
	if !got.Success || len(got.Firings) == 0 || got.Firings[0].Rule != r.Name {
		t.Errorf("rules applied: success %v (%s), firings %+v", got.Success, got.Reason, got.Firings)
	}

	eng, err := Compile(res.Program, base)
	if err != nil {
		t.Fatal(err)
	}
	bound, err := episode.NewReader(bytes.NewReader(off), "sample.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	again, err := episode.NewReader(bytes.NewReader(off), "sample.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	ap, err := NewApplier(eng, res.Program, "sample.jsonl", bound, again)
	if err != nil {
		t.Fatal(err)
	}
	var applied bytes.Buffer
	var fired []episode.RuleFiring
	n, err := ap.WriteTo(&applied, false, func(f episode.RuleFiring) { fired = append(fired, f) })
	if err != nil || n == 0 || len(fired) != n {
		t.Fatalf("WriteTo: %d firings (%v reported), %v", n, len(fired), err)
	}
	if got := check(applied.Bytes(), nil); !got.Success {
		t.Errorf("with the rules' outcomes added: %s", got.Reason)
	}

	// WriteFile: the same bytes, replacing a file and keeping its mode.
	bound, _ = episode.NewReader(bytes.NewReader(off), "sample.jsonl")
	again, _ = episode.NewReader(bytes.NewReader(off), "sample.jsonl")
	if ap, err = NewApplier(eng, res.Program, "sample.jsonl", bound, again); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "applied.jsonl")
	if err := os.WriteFile(out, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	tmp, err := fsutil.CreateTempBeside(out)
	if err != nil {
		t.Fatal(err)
	}
	if n2, err := ap.WriteFile(tmp, out, func(episode.RuleFiring) {}); err != nil || n2 != n {
		t.Fatalf("WriteFile: %d firings, %v; want %d", n2, err, n)
	}
	if b, err := os.ReadFile(out); err != nil || !bytes.Equal(b, applied.Bytes()) {
		t.Errorf("WriteFile wrote %d bytes (%v), WriteTo %d", len(b), err, applied.Len())
	}
	if info, err := os.Stat(out); err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("WriteFile: mode %v, %v; want 0600 kept", info.Mode().Perm(), err)
	}
	if _, err := os.Stat(tmp.Name()); !os.IsNotExist(err) {
		t.Errorf("WriteFile left %s", tmp.Name())
	}
}

func TestWriteSampleFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	def, ep, err := WriteSampleFiles(dir, "(define)", []byte("{}\n"))
	if err != nil || def != filepath.Join(dir, "problem0.bddl") || ep != filepath.Join(dir, "sample.jsonl") {
		t.Fatalf("WriteSampleFiles = %s, %s, %v", def, ep, err)
	}
	if err := os.Chmod(ep, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, _, err := WriteSampleFiles(dir, "(define 2)", []byte("{}\n{}\n")); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(def)
	info, _ := os.Stat(ep)
	if string(b) != "(define 2)" || info.Mode().Perm() != 0o600 {
		t.Errorf("replaced: %q, mode %v; want the new text and 0600 kept", b, info.Mode().Perm())
	}
}

func TestLookupSynsetAndMentions(t *testing.T) {
	base := kb.Default()
	r, ok := FindRule(base, "sugar_cookies")
	if !ok {
		t.Skip("the default knowledge base has no sugar_cookies rule")
	}
	in := r.Inputs[0].Name
	id, ok := LookupSynset(base, in+"_3")
	if !ok || !r.Mentions(base, id) {
		t.Errorf("LookupSynset(%s_3) = %v, %v; mentioned %v", in, id, ok, ok && r.Mentions(base, id))
	}
	if _, ok := LookupSynset(base, "nosuch.n.01_1"); ok {
		t.Error("LookupSynset found nosuch.n.01")
	}
	rec := r.Record()
	if rec.Name != r.Name || rec.Inputs[in] != r.Inputs[0].Count {
		t.Errorf("record %+v", rec)
	}
	if sim := SimilarRules(base, "sugar"); len(sim) == 0 || len(sim) > 5 {
		t.Errorf("SimilarRules(sugar) = %v", sim)
	}
}

// TestRuleHint: a mistyped rule name suggests the closest rules; one far
// from any says where the list is.
func TestRuleHint(t *testing.T) {
	t.Parallel()
	base := kb.Default()
	for _, tc := range []struct{ name, want string }{
		{"sugar_cookie", "; did you mean sugar_cookies?"},
		{"qqqqqqqqqqqqqqqqqqqqqq", "; 'bddl transition list' shows them"},
	} {
		if got := RuleHint(base, tc.name); got != tc.want {
			t.Errorf("RuleHint(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
}
