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

// TestSpinReaderLook: the reader's look follows the contention look; an
// undecided one keeps the last answer and looks again a tenth of a
// second later; without /proc the load average decides.
func TestSpinReaderLook(t *testing.T) {
	f := &fakeProc{busy: 1000, total: 5000, own: 10, peer: 10}
	r := &spinReader{every: time.Second, others: newContention(77, 2, f.read)}
	f.total, f.busy = f.total+200, f.busy+200 // the others' alone
	if !r.look() || r.every != time.Second {
		t.Errorf("a processor held by others: look false or every %v", r.every)
	}
	r.busy = true
	f.total += 5
	if !r.look() || r.every != time.Second/10 {
		t.Errorf("undecided: look did not keep the last answer, or every %v", r.every)
	}
	f.total, f.own = f.total+200, f.own+200
	if r.look() || r.every != time.Second {
		t.Errorf("all ours: look true or every %v", r.every)
	}
	f.noProc = true
	r.others.busy() // /proc gone: not available
	if got := r.look(); got != machineBusy() || r.every != time.Second {
		t.Errorf("without /proc: look %v, machineBusy %v, every %v", got, machineBusy(), r.every)
	}
}
