package batch

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/openbddl/bddl/episode"
)

// TestOutcomePathBytes: an episode name that is not UTF-8 is kept as
// bytes (path_bytes) beside the U+FFFD the JSON string shows.
func TestOutcomePathBytes(t *testing.T) {
	t.Parallel()
	for _, extra := range []map[string]any{nil, {"layout": "x"}} {
		o := &Outcome{Result: &episode.Result{Episode: "ep\xfe.jsonl"}, Extra: extra}
		b, err := o.MarshalJSON()
		if err != nil || !json.Valid(b) {
			t.Fatalf("%s: %v", b, err)
		}
		var rec map[string]any
		_ = json.Unmarshal(b, &rec)
		raw, err := base64.StdEncoding.DecodeString(fmt.Sprint(rec["path_bytes"]))
		if err != nil || string(raw) != "ep\xfe.jsonl" {
			t.Errorf("%s: path_bytes does not give the name back", b)
		}
	}
	o := &Outcome{Result: &episode.Result{Episode: "ok.jsonl"}}
	if b, _ := o.MarshalJSON(); strings.Contains(string(b), "path_bytes") {
		t.Errorf("a UTF-8 name: %s", b)
	}
}
