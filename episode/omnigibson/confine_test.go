package omnigibson

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Item 7: a template's category or model cannot leave --og-dataset, by a
// relative path or by a link.
func TestDatasetCategoryConfined(t *testing.T) {
	root := t.TempDir()
	ds := filepath.Join(root, "ds")
	outside := filepath.Join(root, "outside", "m", "misc")
	for _, d := range []string{filepath.Join(ds, "objects", "apple", "m", "misc"), outside, filepath.Join(ds, "objects", "linked")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	meta := []byte(`{"bbox_size": [0.1, 0.1, 0.1]}`)
	for _, p := range []string{filepath.Join(ds, "objects", "apple", "m", "misc", "metadata.json"), filepath.Join(outside, "metadata.json")} {
		if err := os.WriteFile(p, meta, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(root, "outside", "m"), filepath.Join(ds, "objects", "linked", "m")); err != nil {
		t.Fatal(err)
	}
	d, err := OpenDataset(ds)
	if err != nil {
		t.Fatal(err)
	}
	if m, err := d.Model("apple", "m"); err != nil || m == nil || !m.HasSize {
		t.Fatalf("inside: %+v, %v", m, err)
	}
	for _, tc := range []struct{ category, model, want string }{
		{"../../outside", "m", "not a plain name"},
		{"..", "outside", "not a plain name"},
		{"apple", "../m", "not a plain name"},
		{"linked", "m", "outside the allowed directories"},
	} {
		m, err := d.Model(tc.category, tc.model)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s/%s: %+v, %v; want error %q", tc.category, tc.model, m, err, tc.want)
		}
	}
}
