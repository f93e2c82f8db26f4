package recordings

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/openbddl/bddl/episode/dora"
	"github.com/openbddl/bddl/episode/oopsie"
)

// Layouts of recordings, as Episode.Layout holds them.
const (
	Oopsie = "oopsie"
	Dora   = "dora"
)

// Episode is one recording: an Oopsie file or a Dora episode folder.
type Episode struct {
	Layout string // Oopsie or Dora
	Path   string
}

// Find lists the recordings of the paths: Oopsie files (and trees of
// them), Dora episode folders and sessions, of the layouts given (every
// layout when none). A directory is walked for each.
func Find(paths []string, layouts ...string) ([]Episode, error) {
	want := func(l string) bool {
		return len(layouts) == 0 || strings.Contains(strings.Join(layouts, ","), l)
	}
	var out []Episode
	for _, p := range paths {
		info, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		n := len(out)
		if want(Dora) && (info.IsDir() || filepath.Base(p) == dora.MetadataFile) {
			if eps, err := dora.Find([]string{p}); err == nil {
				for _, e := range eps {
					out = append(out, Episode{Dora, e})
				}
			}
		}
		if want(Oopsie) && (info.IsDir() && !dora.IsEpisodeDir(p) || !info.IsDir() && oopsie.IsEpisodeFile(p)) {
			if eps, err := oopsie.Find([]string{p}); err == nil {
				for _, e := range eps {
					out = append(out, Episode{Oopsie, e})
				}
			}
		}
		if len(out) == n {
			return nil, fmt.Errorf("%s: no %s recording found", p, strings.Join(layoutNames(layouts), " or "))
		}
	}
	return out, nil
}

func layoutNames(layouts []string) []string {
	if len(layouts) == 0 {
		return []string{"Oopsie", "Dora-record"}
	}
	var out []string
	for _, l := range layouts {
		out = append(out, map[string]string{Oopsie: "Oopsie", Dora: "Dora-record"}[l])
	}
	return out
}

// LayoutName is the layout as JSON records name it ("oopsie",
// "dora-record"), the same in check, annotate and the converters.
func (e Episode) LayoutName() string {
	if e.Layout == Dora {
		return "dora-record"
	}
	return e.Layout
}

// ConvertedName is the episode file a recording is written to: X.jsonl
// for X.h5; <session>_<episode>.jsonl for a Dora folder.
func (e Episode) ConvertedName() string {
	if e.Layout == Dora {
		abs, _ := filepath.Abs(e.Path)
		return filepath.Base(filepath.Dir(abs)) + "_" + filepath.Base(abs) + ".jsonl"
	}
	b := filepath.Base(e.Path)
	return strings.TrimSuffix(b, filepath.Ext(b)) + ".jsonl"
}
