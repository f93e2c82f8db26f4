package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// viewPageOf writes the page of an episode and returns its text.
func viewPageOf(t *testing.T, args ...string) (string, string) {
	t.Helper()
	page := filepath.Join(t.TempDir(), "v.html")
	all := append(append([]string{"view"}, args...), "-o", page)
	r := runBDDL(t, all...)
	r.wantCode(t, all, exitOK)
	return string(readFile(t, page)), page
}

// pageData is the JSON the page draws.
func pageData(t *testing.T, html string) viewData {
	t.Helper()
	m := regexp.MustCompile(`(?s)const DATA = (.*?);\n\(function`).FindStringSubmatch(html)
	if m == nil {
		t.Fatal("no data in the page")
	}
	var d viewData
	if err := json.Unmarshal([]byte(m[1]), &d); err != nil {
		t.Fatalf("page data: %v", err)
	}
	return d
}

// TestViewPage checks that the page of an episode is self-contained and
// holds its objects, every step and the goal's truth at each.
func TestViewPage(t *testing.T) {
	t.Parallel()
	ep := examplePath("tidying_the_living_room", "poses.jsonl")
	html, _ := viewPageOf(t, "--activity", "tidying_the_living_room", ep)
	// No resource is fetched: no src or href attribute, no URL but the
	// SVG namespace name.
	for _, m := range regexp.MustCompile(`https?://[^"' )]*`).FindAllString(html, -1) {
		if m != "http://www.w3.org/2000/svg" {
			t.Errorf("the page refers to %s", m)
		}
	}
	if regexp.MustCompile(`\s(src|href)=`).MatchString(html) {
		t.Error("the page loads a resource")
	}
	d := pageData(t, html)
	if len(d.Objects) == 0 || len(d.Frames) < 2 || len(d.Conjuncts) == 0 || d.Report == "" {
		t.Fatalf("page data: %d objects, %d frames, %d conjuncts, report %q", len(d.Objects), len(d.Frames), len(d.Conjuncts), d.Report)
	}
	for _, f := range d.Frames {
		if len(f.Truth) != len(d.Conjuncts)+1 || len(f.Boxes) != len(d.Objects) {
			t.Errorf("frame %d: %d truths, %d boxes", f.Step, len(f.Truth), len(f.Boxes))
		}
	}
	// A sampled scene: one step.
	out := t.TempDir()
	runBDDL(t, "sample", "cleaning_shoes", "-o", out).wantCode(t, nil, exitOK)
	eps, _ := filepath.Glob(filepath.Join(out, "cleaning_shoes", "*.jsonl"))
	if len(eps) != 1 {
		t.Fatalf("sample wrote %v", eps)
	}
	html, _ = viewPageOf(t, eps[0])
	if d := pageData(t, html); len(d.Frames) != 1 || len(d.Objects) == 0 {
		t.Errorf("scene page: %d frames, %d objects", len(d.Frames), len(d.Objects))
	}
}

// TestViewPageControlBytes: an activity or episode name holding ESC,
// BEL, CR or LF (from a header or a walked file name) reaches the page
// escaped, never as a raw control byte.
func TestViewPageControlBytes(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, activity, episode string }{
		{"osc in file name", "a", "runs/c\x1b]0;T\a\nFAKE.jsonl"},
		{"cr lf in activity", "tidy\r\nok    FAKE", "e.jsonl"},
		{"del and c0", "a\x7f\x01", "e\x1b[31m.jsonl"},
	}
	for _, tt := range tests {
		page, err := renderView(&viewData{Activity: tt.activity, Episode: tt.episode})
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		for i, b := range page {
			if b < 0x20 && b != '\n' && b != '\t' {
				t.Errorf("%s: renderView: control byte %#x at %d", tt.name, b, i)
				break
			}
		}
		title := regexp.MustCompile(`<title>(.*)</title>`).FindSubmatch(page)
		if title == nil || bytes.IndexByte(title[1], 0x7f) >= 0 {
			t.Errorf("%s: renderView: title %q", tt.name, title)
		}
	}
}

// TestViewFramesThinned: a long episode is shown at most --frames steps,
// the first and last among them.
func TestViewFramesThinned(t *testing.T) {
	t.Parallel()
	ep := examplePath("tidying_the_living_room", "poses.jsonl")
	html, _ := viewPageOf(t, "--activity", "tidying_the_living_room", "--frames", "3", ep)
	d := pageData(t, html)
	if len(d.Frames) != 3 || d.Frames[0].Step != 0 || d.Frames[2].Step != int64(d.Steps-1) {
		t.Errorf("frames %v of %d steps", len(d.Frames), d.Steps)
	}
}

// TestViewInChromium opens the page in headless Chromium: its self-test
// moves the slider through every step and checks the scene is drawn.
func TestViewInChromium(t *testing.T) {
	const chromium = "/usr/bin/chromium"
	if _, err := os.Stat(chromium); err != nil {
		t.Skip("no headless browser: /usr/bin/chromium is absent (apt-get install chromium)")
	}
	ep := examplePath("tidying_the_living_room", "poses.jsonl")
	html, page := viewPageOf(t, "--activity", "tidying_the_living_room", ep)
	d := pageData(t, html)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, chromium, "--headless", "--no-sandbox", "--disable-gpu",
		"--disable-background-networking", "--no-first-run", "--user-data-dir="+t.TempDir(),
		"--dump-dom", "file://"+page+"#selftest")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("chromium: %v", err)
	}
	m := regexp.MustCompile(`<p id="selftest">([^<]*)</p>`).FindSubmatch(out)
	if m == nil {
		t.Fatalf("the page's self-test wrote nothing:\n%.2000s", out)
	}
	var steps []string
	for _, f := range d.Frames {
		steps = append(steps, jsonInt(f.Step))
	}
	got := string(m[1])
	if !strings.HasPrefix(got, "pass ") || !strings.Contains(got, "steps="+strings.Join(steps, ",")) {
		t.Errorf("self-test: %s (want pass through steps %s)", got, strings.Join(steps, ","))
	}
	if regexp.MustCompile(`drawn=0\b`).MatchString(got) {
		t.Errorf("nothing drawn: %s", got)
	}
}

func jsonInt(n int64) string {
	b, _ := json.Marshal(n)
	return string(b)
}
