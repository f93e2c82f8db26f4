package view

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadEpisodeRefuses: what cannot be drawn is an error naming why.
func TestReadEpisodeRefuses(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, text, want string }{
		{"libero", `{"format":"libero-episode","version":1}` + "\n", "LIBERO episode records body poses"},
		{"not an episode", `{"a":1}` + "\n", `no "bddl_episode" field`},
		{"empty", "", "the file is empty"},
		{"not json", "(define (problem x))\n", "not an episode"},
		{"bad step", `{"bddl_episode":1}` + "\n" + `{"step":` + "\n", "e.jsonl:2:"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			path := filepath.Join(t.TempDir(), "e.jsonl")
			if err := os.WriteFile(path, []byte(tt.text), 0o644); err != nil {
				t.Fatal(err)
			}
			if _, err := ReadEpisode(path, MaxFrames); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("ReadEpisode(%s) = %v, want an error saying %q", tt.name, err, tt.want)
			}
		})
	}
}

// TestReadEpisodeFrames: boxes carry over between steps, an oriented box
// wins over an axis-aligned one, an object that appears later is padded
// in earlier frames, one that stops existing has no box, a gzip file
// reads the same, and a long episode is thinned to max frames with its
// first and last.
func TestReadEpisodeFrames(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	b.WriteString(`{"bddl_episode":1,"activity":"a.bddl","objects":{"cup":{"aabb":[0,0,0,1,1,1],"room":"kitchen"}}}` + "\n")
	b.WriteString(`{"step":0,"objects":{}}` + "\n")
	b.WriteString(`{"step":1,"objects":{"cup":{"obb":[[0,0,0],[1,0,0],[1,1,0],[0,1,0],[0,0,1],[1,0,1],[1,1,1],[0,1,1]]},"bowl":{"aabb":[2,2,0,3,3,1]}}}` + "\n")
	for s := 2; s < 10; s++ {
		fmt.Fprintf(&b, `{"step":%d,"objects":{}}`+"\n", s)
	}
	b.WriteString(`{"step":10,"objects":{"bowl":{"exists":false}}}` + "\n")
	dir := t.TempDir()
	plain := filepath.Join(dir, "e.jsonl")
	if err := os.WriteFile(plain, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(b.String()))
	zw.Close()
	zipped := filepath.Join(dir, "e.jsonl.gz")
	if err := os.WriteFile(zipped, gz.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{plain, zipped} {
		e, err := ReadEpisode(path, 3)
		if err != nil {
			t.Fatalf("ReadEpisode(%s): %v", path, err)
		}
		if e.ActivityRef() != "a.bddl" || e.Steps != 11 || len(e.Objects) != 2 || e.Objects[0].Room != "kitchen" {
			t.Fatalf("ReadEpisode(%s): activity %q, %d steps, objects %+v", path, e.ActivityRef(), e.Steps, e.Objects)
		}
		var steps []int64
		for _, f := range e.Frames {
			steps = append(steps, f.Step)
			if len(f.Boxes) != 2 {
				t.Errorf("step %d: %d boxes, want 2", f.Step, len(f.Boxes))
			}
		}
		if fmt.Sprint(steps) != "[0 5 10]" {
			t.Errorf("ReadEpisode(%s, 3) kept steps %v, want [0 5 10]", path, steps)
		}
		first, mid, last := e.Frames[0], e.Frames[1], e.Frames[2]
		if len(first.Boxes[0]) != 6 || first.Boxes[1] != nil {
			t.Errorf("step 0: boxes %v, want the cup's aabb and no bowl", first.Boxes)
		}
		if len(mid.Boxes[0]) != 24 || len(mid.Boxes[1]) != 6 {
			t.Errorf("step 5: boxes %v, want the cup's obb and the bowl's aabb", mid.Boxes)
		}
		if last.Boxes[1] != nil {
			t.Errorf("step 10: the bowl no longer exists but has box %v", last.Boxes[1])
		}
		if e.Drawn() != 1 {
			t.Errorf("Drawn() = %d, want 1", e.Drawn())
		}
	}
}
