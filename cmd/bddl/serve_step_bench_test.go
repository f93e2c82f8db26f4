package main

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"testing"
)

// BenchmarkServeStepDispatch measures the server's own work for one lean
// session.step request, as the reader thread does it for a client that
// waits for each response: the request line decoded, the step applied
// and evaluated, the response written to a file with one write(2). No
// pipe and no second process: the rest of a round trip is theirs.
func BenchmarkServeStepDispatch(b *testing.B) {
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		b.Skip(err)
	}
	defer null.Close()
	var sink bytes.Buffer
	g := &globalOptions{streams: streams{out: &sink, err: &sink}}
	s := newServer(g, &sink, defaultServeMaxLine)
	s.dispatch([]byte(`{"id":0,"method":"session.open","params":{"activity":"` + exampleActivity + `","transitions":false}}`))
	s.running.Wait()
	s.direct = null
	facts := []string{`"facts"`, `"false"`}
	b.ReportAllocs()
	k := 0
	var line []byte
	for b.Loop() {
		k++
		line = append(line[:0], `{"id":`...)
		line = strconv.AppendInt(line, int64(k), 10)
		line = fmt.Appendf(line, `,"method":"session.step","params":{"session":"s1","step":{"step":%d,%s:[["ontop","mug.n.04_1","sink.n.01_1"]]}}}`, k, facts[k%2])
		s.dispatch(line)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "requests/s")
	close(s.lines)
	<-s.written
}
