package episode

import (
	"encoding/json"
	"slices"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSchemaMatchesReader keeps episode.schema.json in step with the
// reader: the header, step and object properties it lists are exactly
// the fields the reader knows.
func TestSchemaMatchesReader(t *testing.T) {
	var schema struct {
		Defs map[string]struct {
			Properties map[string]json.RawMessage `json:"properties"`
			Required   []string                   `json:"required"`
		} `json:"$defs"`
	}
	if err := json.Unmarshal(Schema, &schema); err != nil {
		t.Fatalf("the schema is not JSON: %v", err)
	}
	keys := func(def string) []string {
		var out []string
		for k := range schema.Defs[def].Properties {
			out = append(out, k)
		}
		sort.Strings(out)
		return out
	}
	var objectFields []string
	for _, fn := range fieldNames {
		objectFields = append(objectFields, fn.name)
	}
	sort.Strings(objectFields)
	for _, c := range []struct {
		def  string
		want []string
	}{
		{"Header", []string{"activity", "bddl_episode", "closed_world", "dt", "meta", "objects", "steps"}},
		{"Step", []string{"facts", "false", "objects", "step", "t", "unset"}},
		{"Object", objectFields},
		{"Joint", []string{"dir", "hi", "lo", "q"}},
		{"Particles", []string{"absorb_limit", "absorbed", "covering", "fill_fraction", "inside"}},
		{"Cloth", []string{"area_ratio", "diagonal_ratio", "smoothness"}},
	} {
		if diff := cmp.Diff(c.want, keys(c.def)); diff != "" {
			t.Errorf("schema $defs.%s properties differ from the reader's (-reader +schema):\n%s", c.def, diff)
		}
	}
	if req := schema.Defs["Joint"].Required; !slices.Equal(req, []string{"q", "lo", "hi"}) {
		t.Errorf("schema Joint requires %v, the reader q, lo, hi", req)
	}
}
