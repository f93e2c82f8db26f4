package episode

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"runtime"
	"strings"
	"testing"
)

// hugeLineGzip returns a gzip recording whose header is valid and whose
// second line is n bytes of one JSON string, without a newline, written
// through the compressor in chunks so the test never holds the line.
func hugeLineGzip(t *testing.T, n int) []byte {
	t.Helper()
	var buf bytes.Buffer
	gz, err := gzip.NewWriterLevel(&buf, gzip.BestSpeed)
	if err != nil {
		t.Fatal(err)
	}
	io.WriteString(gz, `{"bddl_episode":1,"activity":"a","objects":{}}`+"\n")
	io.WriteString(gz, `{"step":0,"x":"`)
	chunk := bytes.Repeat([]byte("y"), 1<<20)
	for left := n - 15; left > 0; left -= len(chunk) {
		if _, err := gz.Write(chunk[:min(left, len(chunk))]); err != nil {
			t.Fatal(err)
		}
	}
	if err := gz.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestLineLimit: a line over MaxLineBytes (here a gzip of one line of
// 64 MiB and a bit) is refused with file:line, in memory a small multiple
// of the limit, and every later read returns the same error.
func TestLineLimit(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a 64 MiB line through gzip")
	}
	data := hugeLineGzip(t, MaxLineBytes+1<<20)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	r, err := NewReader(bytes.NewReader(data), "huge.jsonl.gz")
	if err != nil {
		t.Fatalf("header: %v", err)
	}
	_, err = r.ReadStep()
	runtime.ReadMemStats(&after)
	var e *Error
	if !errors.As(err, &e) || e.File != "huge.jsonl.gz" || e.Line != 2 || !strings.Contains(e.Msg, "longer than the limit of 64 MiB") {
		t.Fatalf("ReadStep error = %v, want huge.jsonl.gz:2 over the 64 MiB limit", err)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 5*MaxLineBytes/2 {
		t.Errorf("reading the line allocated %d MiB, want at most 2.5 × the %d MiB limit", alloc>>20, MaxLineBytes>>20)
	}
	if _, err2 := r.ReadStep(); err2 == nil || err2.Error() != err.Error() {
		t.Errorf("read after the limit: %v, want the same error", err2)
	}
}

// TestLineLimitBoundary: with a lowered limit, a line of exactly the limit
// is read (and parsed, here failing as JSON), one byte more is refused;
// a header line over the limit is refused by NewReader at line 1.
func TestLineLimitBoundary(t *testing.T) {
	header := `{"bddl_episode":1,"activity":"a","objects":{}}` + "\n"
	for _, tc := range []struct {
		name string
		n    int
		over bool
	}{
		{"at the limit", 1000, false},
		{"over the limit", 1001, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			line := `{"step":0,"x":"` + strings.Repeat("y", tc.n-17) + `"}`
			r, err := NewReader(strings.NewReader(header+line+"\r\n"), "f.jsonl")
			if err != nil {
				t.Fatal(err)
			}
			r.maxLine = 1000
			_, err = r.ReadStep()
			if over := err != nil && strings.Contains(err.Error(), "longer than the limit"); over != tc.over {
				t.Errorf("line of %d bytes: error %v, over the limit: %v, want %v", len(line), err, over, tc.over)
			}
		})
	}
	t.Run("header", func(t *testing.T) {
		_, err := NewReader(strings.NewReader(`{"bddl_episode":1,"activity":"`+strings.Repeat("a", MaxLineBytes)+`"}`), "h.jsonl")
		var e *Error
		if !errors.As(err, &e) || e.Line != 1 || !strings.Contains(e.Msg, "longer than the limit") {
			t.Errorf("NewReader with a huge header: %v, want line 1 over the limit", err)
		}
	})
}
