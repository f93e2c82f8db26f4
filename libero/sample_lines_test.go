package libero

import (
	"bytes"
	"errors"
	"testing"
)

// TestSampleLines: text lines as sample prints them, or one JSON record.
func TestSampleLines(t *testing.T) {
	t.Parallel()
	rec := SampleRecord{Activity: "task", Index: 2, File: "task/2.jsonl", Status: "ok", Ms: 1.25}
	var text, js bytes.Buffer
	_ = SampleLines(&text, false)(rec, nil)
	_ = SampleLines(&text, false)(rec, errors.New("no room"))
	if want := "ok    task  task/2.jsonl  1.2 ms\nFAIL  task  #2  no room\n"; text.String() != want {
		t.Errorf("text = %q, want %q", text.String(), want)
	}
	if err := SampleLines(&js, true)(rec, nil); err != nil || js.Len() == 0 || js.Bytes()[0] != '{' {
		t.Errorf("json = %q, %v", js.String(), err)
	}
}
