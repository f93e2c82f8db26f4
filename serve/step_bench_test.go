package serve

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"testing"

	"github.com/openbddl/bddl/internal/corpus"
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
	g := testHost(&sink, "")
	s := newServer(g, &sink, DefaultMaxLine)
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

// BenchmarkServeStepDispatchCorpus is BenchmarkServeStepDispatch on a
// BEHAVIOR-1K activity with the BEHAVIOR-1K knowledge base, in a closed
// world, as python/bench/reference_speed.py drives it.
func BenchmarkServeStepDispatchCorpus(b *testing.B) {
	corpusDir := corpus.Dir(b)
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		b.Skip(err)
	}
	defer null.Close()
	var sink bytes.Buffer
	g := testHost(&sink, corpus.KBDir(b))
	s := newServer(g, &sink, DefaultMaxLine)
	problem := corpusDir + "/activity_definitions/clean_your_cleaning_supplies/problem0.bddl"
	if _, err := os.Stat(problem); err != nil {
		b.Skip("the corpus has no clean_your_cleaning_supplies")
	}
	objects := `"mop_bucket.n.01_1":{},"swab.n.02_1":{},"rag.n.01_1":{},"dust.n.01_1":{},"mold.n.05_1":{},"stain.n.01_1":{}`
	s.dispatch([]byte(`{"id":0,"method":"session.open","params":{"activity":"` + problem + `","transitions":false,"header":{"closed_world":true,"objects":{` + objects + `}}}}`))
	s.running.Wait()
	if bytes.Contains(sink.Bytes(), []byte(`"error"`)) {
		b.Fatalf("session.open: %s", sink.Bytes())
	}
	s.direct = null
	atoms := []string{`["covered","mop_bucket.n.01_1","dust.n.01_1"]`, `["covered","swab.n.02_1","mold.n.05_1"]`, `["covered","rag.n.01_1","stain.n.01_1"]`}
	b.ReportAllocs()
	k := 0
	var line []byte
	for b.Loop() {
		k++
		kind := `"facts"`
		if k%2 == 0 {
			kind = `"false"`
		}
		line = append(line[:0], `{"id":`...)
		line = strconv.AppendInt(line, int64(k), 10)
		line = fmt.Appendf(line, `,"method":"session.step","params":{"session":"s1","step":{"step":%d,%s:[%s]}}}`, k, kind, atoms[(k/2)%len(atoms)])
		s.dispatch(line)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "requests/s")
	close(s.lines)
	<-s.written
}
