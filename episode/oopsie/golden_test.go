package oopsie

import (
	"flag"
	"io"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/openbddl/bddl/episode/recording"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// TestGolden joins each session episode with its track (the map's names,
// rooms and static objects) and compares the episode written with
// testdata/golden/<name>.jsonl.
func TestGolden(t *testing.T) {
	m, err := recording.LoadMap("testdata/robot.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"ep_single", "ep_biarm", "ep_noannot"} {
		t.Run(name, func(t *testing.T) {
			e := open(t, name+".h5")
			s, err := e.Join(recording.Options{Activity: "putting_the_apple_on_the_table-0", Map: m, DeclareSteps: true})
			if err != nil {
				t.Fatal(err)
			}
			got, err := io.ReadAll(s)
			if err != nil || s.Err() != nil {
				t.Fatal(err, s.Err())
			}
			golden := "testdata/golden/" + name + ".jsonl"
			if *update {
				if err := os.MkdirAll("testdata/golden", 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(string(want), string(got)); d != "" {
				t.Errorf("%s differs (-want +got; go test -update rewrites it):\n%s", golden, d)
			}
		})
	}
}
