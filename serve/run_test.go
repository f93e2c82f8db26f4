package serve

import (
	"bufio"
	"bytes"
	"encoding/json"
	"sort"
	"strings"
	"testing"
)

// TestRun drives the exported entry point as another Go program would:
// a reader of requests, a writer of responses, the limits' defaults.
func TestRun(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		set     func(*Options)
		in      string
		maxLine int    // the handshake's
		ids     string // the responses' ids, sorted (they come as requests complete)
		err     string // Run's error
	}{
		{name: "defaults", set: func(*Options) {}, in: `{"id":1,"method":"explain","params":{"activity":"` + exampleActivity + `"}}` + "\n" +
			`{"id":2,"method":"session.open","params":{"activity":"` + exampleActivity + `"}}`, maxLine: DefaultMaxLine, ids: "1 2"},
		{name: "a limit set", set: func(o *Options) { o.MaxLine = 4096 }, in: `{"id":"x","method":"explain","params":{"text":"` + strings.Repeat("x", 5000) + `"}}`,
			maxLine: 4096, ids: `"x"`},
		{name: "no host", set: func(o *Options) { o.Check = nil }, err: "must be set"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			o := *testHost(nil, "")
			o.MaxLine = 0
			tc.set(&o)
			var out bytes.Buffer
			err := Run(strings.NewReader(tc.in), &out, o)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) || out.Len() != 0 {
					t.Fatalf("Run = %v, output %q; want an error with %q and no output", err, out.String(), tc.err)
				}
				return
			}
			if err != nil {
				t.Fatalf("Run = %v", err)
			}
			sc := bufio.NewScanner(&out)
			sc.Buffer(nil, 1<<24)
			var hand serveHandshake
			if !sc.Scan() || json.Unmarshal(sc.Bytes(), &hand) != nil || hand.MaxLine != tc.maxLine || hand.Version != "test" {
				t.Fatalf("handshake %q, want max_line %d", sc.Text(), tc.maxLine)
			}
			var ids []string
			for sc.Scan() {
				var r serveReply
				if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
					t.Fatalf("response %q: %v", sc.Text(), err)
				}
				ids = append(ids, string(r.ID))
			}
			sort.Strings(ids)
			if got := strings.Join(ids, " "); got != tc.ids {
				t.Errorf("response ids %s, want %s", got, tc.ids)
			}
		})
	}
}
