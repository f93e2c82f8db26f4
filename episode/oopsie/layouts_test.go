package oopsie

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/openbddl/bddl/episode/recording"
)

// layouts are ep_single.h5 written again by h5py in other file layouts
// (testdata/make_layouts.py): superblock 3 and version 2 object headers,
// a userblock, creation order tracked, dense link storage.
var layouts = []string{"latest.h5", "userblock.h5", "userblock_latest.h5", "track_order.h5", "latest_many.h5"}

// TestLayouts: each layout reads as the default layout's file does: the
// same root attributes, streams and annotations, and the same episode
// joined with the track (testdata/golden/ep_single.jsonl).
func TestLayouts(t *testing.T) {
	m, err := recording.LoadMap("testdata/robot.yaml")
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile("testdata/golden/ep_single.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	ref := open(t, "ep_single.h5")
	track, err := os.ReadFile(filepath.Join(session, "ep_single.objects.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range layouts {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			data, err := os.ReadFile(filepath.Join("testdata/layouts", name))
			if err != nil {
				t.Fatal(err)
			}
			p := filepath.Join(dir, "ep_single.h5")
			if err := os.WriteFile(p, data, 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "ep_single.objects.jsonl"), track, 0o644); err != nil {
				t.Fatal(err)
			}
			e, err := Open(p)
			if err != nil {
				t.Fatal(err)
			}
			defer e.Close()
			if e.EpisodeID != ref.EpisodeID || e.LanguageInstruction != ref.LanguageInstruction || e.Timestamp != ref.Timestamp ||
				e.ControlFrequency != ref.ControlFrequency || e.OperatorName != ref.OperatorName {
				t.Errorf("root attributes differ: %+v", e)
			}
			if name == "latest_many.h5" {
				if len(e.Annotations) != 12 || e.Annotations[11].Annotator != "annotator11" || e.Annotations[11].Success != 1 {
					t.Errorf("%d annotations, want annotator00 … annotator11", len(e.Annotations))
				}
			} else if d := cmp.Diff(ref.Annotations, e.Annotations); d != "" {
				t.Errorf("annotations differ (-default +%s):\n%s", name, d)
			}
			s, err := e.Join(recording.Options{Activity: "putting_the_apple_on_the_table-0", Map: m, DeclareSteps: true})
			if err != nil {
				t.Fatal(err)
			}
			got, err := io.ReadAll(s)
			if err != nil || s.Err() != nil {
				t.Fatal(err, s.Err())
			}
			// the track's path is the only difference expected
			got = bytes.ReplaceAll(got, []byte(dir), []byte(session))
			if d := cmp.Diff(string(want), string(got)); d != "" {
				t.Errorf("the episode differs from the default layout's (-default +%s):\n%s", name, d)
			}
		})
	}
}

// TestAnnotateLayoutRefused: annotating a file of another layout is
// refused with the reason and what to do, the file unchanged and no copy
// left beside it (the library writes only into symbol-table groups of a
// file without a userblock).
func TestAnnotateLayoutRefused(t *testing.T) {
	for _, tc := range []struct{ name, want string }{
		{"latest.h5", `the root group stores its links as link messages (h5py's libver="latest" or track_order=True)`},
		{"latest_many.h5", `the root group stores its links as link messages`},
		{"track_order.h5", `the root group stores its links as link messages`},
		{"userblock.h5", `the file has a 512-byte userblock`},
		{"userblock_latest.h5", `the file has a 512-byte userblock`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("testdata/layouts", tc.name))
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			p := filepath.Join(dir, tc.name)
			if err := os.WriteFile(p, data, 0o644); err != nil {
				t.Fatal(err)
			}
			a := verdict
			err = Annotate(p, &a, false)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "cannot annotate it: annotate it with h5py") {
				t.Fatalf("error %v, want %q and what to do", err, tc.want)
			}
			after, err := os.ReadFile(p)
			if err != nil || !bytes.Equal(after, data) {
				t.Errorf("the file changed (%v)", err)
			}
			if ents, _ := os.ReadDir(dir); len(ents) != 1 {
				t.Errorf("%d entries in the folder, want the file alone", len(ents))
			}
		})
	}
}

// TestLayoutsTruncation: the superblock's end of file is found after a
// userblock too (an absolute address): whole files are not truncated,
// files cut by 100 bytes are.
func TestLayoutsTruncation(t *testing.T) {
	for _, n := range layouts {
		p := filepath.Join("testdata/layouts", n)
		st, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if m := truncated(p, st.Size()); m != "" {
			t.Errorf("%s: %s", n, m)
		}
		if m := truncated(p, st.Size()-100); m == "" {
			t.Errorf("%s: a cut of 100 bytes not seen", n)
		}
	}
}
