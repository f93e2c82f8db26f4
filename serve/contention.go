package serve

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strconv"
)

// contention tells whether polling pays: the other processes must leave
// a processor to each polling side (the server's reader waiting for the
// next request, the client waiting for the answer). The load average
// cannot tell: it counts the two polling threads themselves and lags by
// a minute; with one other process holding one of two processors it
// stayed under its limit while polling made a group step cost 1.3–1.7×
// the reference's call instead of 0.9× (docs/python.md). So, on Linux,
// the machine's busy time since the last look is read from /proc, less
// this process's and its parent's (the client that started it, in the
// common case; any other parent's time counts as the others').
type contention struct {
	peer int // the client's process id (0: none known)
	cpus int
	read func(path string) ([]byte, error)
	last contentionSample
	have bool // last holds a sample: /proc can be read
}

// contentionSlack is how much of a processor the other processes may
// hold beyond all processors but the two polling sides' before polling
// stops.
const contentionSlack = 0.5

// contentionMinTicks is the shortest look, in ticks a processor: a tenth
// of a second (the ticks are hundredths).
const contentionMinTicks = 10

type contentionSample struct {
	busy, total int64 // the machine's clock ticks
	own, peer   int64 // the two processes' (peer only where peerOK)
	peerOK      bool
}

// available is whether /proc could be read at the last look.
func (c *contention) available() bool { return c.have }

func newContention(peer, cpus int, read func(string) ([]byte, error)) *contention {
	c := &contention{peer: peer, cpus: max(cpus, 1), read: read}
	c.last, c.have = c.sample()
	return c
}

func (c *contention) sample() (contentionSample, bool) {
	var s contentionSample
	m, err := c.read("/proc/stat")
	if err != nil {
		return s, false
	}
	own, err := c.read("/proc/self/stat")
	if err != nil {
		return s, false
	}
	var ok bool
	if s.busy, s.total, ok = machineTicks(m); !ok {
		return s, false
	}
	if s.own, ok = processTicks(own); !ok {
		return s, false
	}
	if c.peer > 0 {
		if p, err := c.read(fmt.Sprintf("/proc/%d/stat", c.peer)); err == nil {
			s.peer, s.peerOK = processTicks(p)
		}
	}
	return s, true
}

// busy reports whether, since the last look, the other processes held
// more than all processors but the two polling sides' (plus the slack);
// known is false where that cannot be read (not Linux: available turns
// false) or too soon to tell (the look goes on to the next call).
func (c *contention) busy() (busy, known bool) {
	now, ok := c.sample()
	last, had := c.last, c.have
	if !ok || !had {
		c.last, c.have = now, ok
		return false, false
	}
	if now.total-last.total < contentionMinTicks*int64(c.cpus) {
		return false, false
	}
	c.last = now
	ours := now.own - last.own
	if now.peerOK && last.peerOK {
		ours += now.peer - last.peer // a peer not read counts as the others'
	}
	others := float64(now.busy-last.busy-ours) / float64(now.total-last.total) * float64(c.cpus)
	return others > float64(c.cpus-2)+contentionSlack, true
}

// machineTicks reads the busy and total clock ticks of all processors
// from /proc/stat's first line; time stolen by the hypervisor counts as
// busy (the processor was not ours to poll on), waiting for input as
// idle.
func machineTicks(stat []byte) (busy, total int64, ok bool) {
	line, _, _ := bytes.Cut(stat, []byte("\n"))
	f := bytes.Fields(line)
	if len(f) < 6 || string(f[0]) != "cpu" {
		return 0, 0, false
	}
	var v [8]int64 // user nice system idle iowait irq softirq steal
	for i := range v {
		if i+1 >= len(f) {
			break
		}
		n, err := strconv.ParseInt(string(f[i+1]), 10, 64)
		if err != nil || n < 0 {
			return 0, 0, false
		}
		v[i] = n
	}
	for _, n := range v {
		total += n
	}
	return total - v[3] - v[4], total, true
}

// processTicks reads a process's user and system clock ticks from its
// /proc/PID/stat (fields 14 and 15; the name before them, in
// parentheses, may hold spaces and parentheses).
func processTicks(stat []byte) (int64, bool) {
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return 0, false
	}
	f := bytes.Fields(stat[i+1:])
	if len(f) < 13 {
		return 0, false
	}
	u, err1 := strconv.ParseInt(string(f[11]), 10, 64)
	s, err2 := strconv.ParseInt(string(f[12]), 10, 64)
	if err1 != nil || err2 != nil {
		return 0, false
	}
	return u + s, true
}

// readProc reads a small file of /proc (at most 16 KiB: the first line
// of /proc/stat is all that is used of the longest).
func readProc(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, 16<<10))
}
