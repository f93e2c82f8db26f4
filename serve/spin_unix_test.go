//go:build unix

package serve

import (
	"bytes"
	"io"
	"os"
	"strings"
	"testing"
	"time"
)

// TestSpinReader: reads through the spinning reader return what was
// written, in order, to the end; it polls only while the writer keeps
// up: after a read that waited longer than the window, the next one
// blocks at once (fast false).
func TestSpinReader(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	sr := newSpinReader(r, 200*time.Microsecond).(*spinReader)
	gaps := []time.Duration{0, 0, 20 * time.Millisecond, 0}
	var want bytes.Buffer
	for i := range gaps {
		want.WriteString(strings.Repeat("x", i*1000) + "\n")
	}
	go func() {
		for i, gap := range gaps {
			time.Sleep(gap)
			w.Write([]byte(strings.Repeat("x", i*1000) + "\n"))
		}
		w.Close()
	}()
	var got bytes.Buffer
	buf := make([]byte, 1<<16)
	var fast []bool
	for {
		n, err := sr.Read(buf)
		got.Write(buf[:n])
		fast = append(fast, sr.fast)
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if got.String() != want.String() {
		t.Errorf("read %d bytes, wrote %d", got.Len(), want.Len())
	}
	slow := false
	for _, f := range fast {
		slow = slow || !f
	}
	if !slow {
		t.Errorf("fast after every read (%v): the 20 ms gap should have stopped the polling", fast)
	}
	if _, ok := newSpinReader(r, 0).(*os.File); !ok {
		t.Error("a zero window should read the file itself")
	}
	if _, ok := newSpinReader(strings.NewReader("x"), time.Millisecond).(*strings.Reader); !ok {
		t.Error("a reader that is no file should be read as it is")
	}
}
