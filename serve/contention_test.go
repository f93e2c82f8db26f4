package serve

import (
	"errors"
	"fmt"
	"os"
	"testing"
	"time"
)

func TestMachineTicks(t *testing.T) {
	for _, tc := range []struct {
		in          string
		busy, total int64
		ok          bool
	}{
		{"cpu  100 5 50 1000 20 3 7 15 0 0\ncpu0 1 2 3 4\n", 100 + 5 + 50 + 3 + 7 + 15, 1200, true},
		{"cpu 1 2 3 4 5\n", 6, 15, true}, // an old kernel: no irq, softirq, steal
		{"cpu0 1 2 3 4 5\n", 0, 0, false},
		{"cpu 1 2 x 4 5\n", 0, 0, false},
		{"cpu 1 2 -3 4 5\n", 0, 0, false},
		{"cpu 1 2\n", 0, 0, false},
		{"", 0, 0, false},
	} {
		busy, total, ok := machineTicks([]byte(tc.in))
		if busy != tc.busy || total != tc.total || ok != tc.ok {
			t.Errorf("machineTicks(%q) = %d, %d, %v; want %d, %d, %v", tc.in, busy, total, ok, tc.busy, tc.total, tc.ok)
		}
	}
}

func TestProcessTicks(t *testing.T) {
	stat := func(name string) string {
		return fmt.Sprintf("1234 (%s) S 1 1234 1234 0 -1 4194304 100 0 0 0 250 40 0 0 20 0 5 0 100 1000 200", name)
	}
	for _, tc := range []struct {
		in   string
		want int64
		ok   bool
	}{
		{stat("bddl"), 290, true},
		{stat("a (b) c) d"), 290, true}, // a name may hold spaces and parentheses
		{"1234 (bddl) S 1 2 3", 0, false},
		{"1234 bddl S 1 2 3 4 5 6 7 8 9 10 11 12 13 14", 0, false},
		{"1234 (x) S 1 1234 1234 0 -1 4194304 100 0 0 0 u 40 0", 0, false},
	} {
		got, ok := processTicks([]byte(tc.in))
		if got != tc.want || ok != tc.ok {
			t.Errorf("processTicks(%q) = %d, %v; want %d, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

// fakeProc serves /proc files from counters the test advances.
type fakeProc struct {
	busy, total, own, peer int64
	peerGone, noProc       bool
}

func (f *fakeProc) read(path string) ([]byte, error) {
	if f.noProc {
		return nil, os.ErrNotExist
	}
	proc := func(ticks int64) []byte {
		return fmt.Appendf(nil, "1 (p) S 1 1 1 0 -1 0 0 0 0 0 %d 0 0 0 20 0 1 0 1 1 1", ticks)
	}
	switch path {
	case "/proc/stat":
		// user busy, idle the rest
		return fmt.Appendf(nil, "cpu %d 0 0 %d 0 0 0 0 0 0\n", f.busy, f.total-f.busy), nil
	case "/proc/self/stat":
		return proc(f.own), nil
	case "/proc/77/stat":
		if f.peerGone {
			return nil, errors.New("no such process")
		}
		return proc(f.peer), nil
	}
	return nil, os.ErrNotExist
}

// TestContention: over a second of two processors (200 ticks), polling
// stops when the other processes hold more than half of one: not for
// the two polling sides' own time, yes for another process's; a peer
// that cannot be read counts as the others'; on one processor never;
// without /proc, or too soon, it is not known.
func TestContention(t *testing.T) {
	for _, tc := range []struct {
		name                     string
		cpus                     int
		busy, own, peer, elapsed int64 // ticks over the interval
		peerGone, noProc         bool
		want, known              bool
	}{
		{name: "both sides polling, nothing else", cpus: 2, busy: 190, own: 100, peer: 85, elapsed: 200, known: true},
		{name: "a little else", cpus: 2, busy: 190, own: 80, peer: 70, elapsed: 200, known: true},
		{name: "another process holds a processor", cpus: 2, busy: 200, own: 50, peer: 50, elapsed: 200, want: true, known: true},
		{name: "peer unreadable: its time is the others'", cpus: 2, busy: 190, own: 100, peer: 85, elapsed: 200, peerGone: true, want: true, known: true},
		{name: "one processor: never poll", cpus: 1, busy: 90, own: 50, peer: 40, elapsed: 100, want: true, known: true},
		{name: "eight processors, six others", cpus: 8, busy: 790, own: 100, peer: 90, elapsed: 800, known: true},
		{name: "eight processors, seven others", cpus: 8, busy: 800, own: 50, peer: 50, elapsed: 800, want: true, known: true},
		{name: "too soon", cpus: 2, elapsed: 19},
		{name: "no /proc", cpus: 2, busy: 10, elapsed: 200, noProc: true},
	} {
		f := &fakeProc{busy: 1000, total: 5000, own: 10, peer: 10, noProc: tc.noProc}
		c := newContention(77, tc.cpus, f.read)
		f.busy += tc.busy
		f.total += tc.elapsed
		f.own += tc.own
		f.peer += tc.peer
		f.peerGone = tc.peerGone
		got, known := c.busy()
		if got != tc.want || known != tc.known {
			t.Errorf("%s: busy() = %v, %v; want %v, %v", tc.name, got, known, tc.want, tc.known)
		}
	}
}

// TestContentionLive: on this machine, two looks a little apart are
// known where /proc is (Linux), and never when it is not.
func TestContentionLive(t *testing.T) {
	c := newContention(os.Getppid(), 2, readProc)
	_, err := os.Stat("/proc/stat")
	for i := 0; i < 200; i++ { // until the ticks move (hundredths of a second)
		if _, known := c.busy(); known {
			if err != nil {
				t.Fatal("known without /proc/stat")
			}
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	if err == nil {
		t.Error("never known with /proc/stat")
	}
}

// TestContentionShortLook: a call less than a tenth of a second after
// the last look is not decided, and the look goes on: the next call
// spans both; without /proc, available turns false.
func TestContentionShortLook(t *testing.T) {
	f := &fakeProc{busy: 1000, total: 5000, own: 10, peer: 10}
	c := newContention(77, 2, f.read)
	f.total, f.busy = f.total+15, f.busy+15
	if b, known := c.busy(); b || known || !c.available() {
		t.Errorf("15 ticks of 20: busy() = %v, %v, available %v; want undecided, available", b, known, c.available())
	}
	f.total, f.busy = f.total+185, f.busy+185 // 200 in all, all busy, none ours
	if b, known := c.busy(); !b || !known {
		t.Errorf("200 ticks, all the others': busy() = %v, %v; want true", b, known)
	}
	f.total, f.busy, f.own = f.total+200, f.busy+200, f.own+200
	if b, known := c.busy(); b || !known {
		t.Errorf("200 ticks, all ours: busy() = %v, %v; want false (from the last decided look)", b, known)
	}
	f.noProc = true
	if _, known := c.busy(); known || c.available() {
		t.Error("without /proc: known or available")
	}
}
