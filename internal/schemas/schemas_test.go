package schemas

import (
	"encoding/json"
	"testing"
)

// TestFiles: every record type but the episode formats has a valid
// JSON file here, and every file here is a listed record type.
func TestFiles(t *testing.T) {
	t.Parallel()
	for _, n := range Names() {
		data, err := File(n)
		switch {
		case n == "episode" || n == "libero-episode":
			if err == nil {
				t.Errorf("%s: a file here shadows its package's schema", n)
			}
		case err != nil || !json.Valid(data):
			t.Errorf("File(%s): %v", n, err)
		}
	}
	entries, err := files.ReadDir("schemas")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		name := e.Name()[:len(e.Name())-len(".schema.json")]
		if _, ok := Descriptions[name]; !ok {
			t.Errorf("%s is listed nowhere", e.Name())
		}
	}
}
