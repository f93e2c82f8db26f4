package recording

import (
	"io"
	"strings"
	"testing"
)

func TestTrackReader(t *testing.T) {
	t.Parallel()
	text := `{"t": 100.5, "objects": {"apple": {"pos": [1, 2, 3]}}}

{"t": 100.6, "step": 7, "facts": [["cooked", "apple"]]}
{"t": 100.6}
{}` + "\n"
	tr, err := NewTrackReader(strings.NewReader(text), "x.objects.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	tm, st, err := tr.Next()
	if err != nil || tm != 100.5 || st.Objects["apple"].Pos != [3]float64{1, 2, 3} {
		t.Fatalf("sample 1 = %v, %+v, %v", tm, st, err)
	}
	tm, st, err = tr.Next()
	if err != nil || tm != 100.6 || len(st.Facts) != 1 || st.Facts[0].Pred != "cooked" {
		t.Fatalf("sample 2 = %v, %+v, %v", tm, st, err)
	}
	if _, _, err = tr.Next(); err != nil {
		t.Fatalf("sample 3 (same t): %v", err)
	}
	_, _, err = tr.Next()
	if err == nil || !strings.Contains(err.Error(), "x.objects.jsonl:5: t: missing") {
		t.Fatalf("line without t: %v, want x.objects.jsonl:5: t: missing", err)
	}
}

func TestTrackReaderErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, text, want string }{
		{"decreasing", `{"t": 2}` + "\n" + `{"t": 1}`, ":2: t: 1 is before the previous line's 2"},
		{"bad json", `{"t": 1, "objects": }`, ":1:"},
		{"not object", `[1]`, ":1:"},
		{"bad field", `{"t": 1, "objects": {"a": {"aabb": [1, 1, 1, 0, 0, 0]}}}`, ":1: "},
		{"nan t", `{"t": "x"}`, ":1: "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tr, err := NewTrackReader(strings.NewReader(tc.text), "x")
			for err == nil {
				_, _, err = tr.Next()
			}
			if err == io.EOF || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

func FuzzTrackReader(f *testing.F) {
	f.Add([]byte(`{"t": 1, "objects": {"a": {"pos": [1, 2, 3]}}}` + "\n" + `{"t": 2, "facts": [["open", "a"]]}`))
	f.Add([]byte("{}\n{\"t\":1}"))
	f.Add([]byte(`{"t": 1, "step": -4, "unset": [["x","y","z"]]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		tr, err := NewTrackReader(strings.NewReader(string(data)), "f")
		if err != nil {
			return
		}
		prev := -1e308
		for range 10000 {
			tm, _, err := tr.Next()
			if err != nil {
				return
			}
			if tm < prev {
				t.Fatalf("time %v after %v", tm, prev)
			}
			prev = tm
		}
	})
}
