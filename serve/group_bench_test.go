package serve

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/episode"
	"github.com/openbddl/bddl/internal/corpus"
	"github.com/openbddl/bddl/internal/jobs/batch"
	"github.com/openbddl/bddl/kb"
	"github.com/openbddl/bddl/predicates"
)

// BenchmarkServeGroupCorpus measures the server's own work for one
// group.step over 16 BEHAVIOR-1K activities (a deterministic sample;
// synthetic symbolic episodes), the request written as openbddl writes
// it (the sessions list as json.dumps writes it, the steps marshalled),
// the response going to /dev/null: the server's part of
// python/bench/group_speed.py. Per request, and per member in steps/s.
func BenchmarkServeGroupCorpus(b *testing.B) {
	kbDir := corpus.KBDir(b)
	files := corpus.ActivityFiles(b)
	base, err := kb.FromEnv(kbDir)
	if err != nil {
		b.Fatal(err)
	}
	res := batch.NewResolver(base, predicates.Options{})
	res.SetParse(bddl.Options{Mode: bddl.Reference}, nil)
	const n, ticks = 16, 200
	type member struct {
		open  []byte
		steps [][]byte
	}
	var members []member
	stride := max(len(files)/n, 1)
	for i := stride / 2; i < len(files) && len(members) < n; i += stride {
		data, err := os.ReadFile(files[i])
		if err != nil {
			b.Fatal(err)
		}
		act, err := res.ActivityText(files[i], data)
		if err != nil {
			continue
		}
		prog, err := res.Program(act, nil)
		if err != nil {
			continue
		}
		var buf bytes.Buffer
		if err := episode.Synthesize(&buf, prog, act.Name, episode.SynthSymbolic, ticks+1, uint64(i)); err != nil {
			b.Fatal(err)
		}
		lines := bytes.Split(bytes.TrimSpace(buf.Bytes()), []byte("\n"))
		var h map[string]json.RawMessage
		if err := json.Unmarshal(lines[0], &h); err != nil {
			b.Fatal(err)
		}
		delete(h, "steps")
		abs, _ := filepath.Abs(files[i])
		open, _ := json.Marshal(map[string]any{"id": 0, "method": "session.open",
			"params": map[string]any{"activity": abs, "transitions": false, "header": h}})
		members = append(members, member{open: open, steps: lines[1:]})
	}
	if len(members) < n {
		b.Skipf("only %d corpus activities load", len(members))
	}
	for _, m := range members {
		if len(m.steps) < ticks+1 {
			b.Skipf("a synthetic episode of %d steps", len(m.steps))
		}
	}
	var ids []string
	for i := range n {
		ids = append(ids, strconv.Quote(fmt.Sprintf("s%d", i+1)))
	}
	requests := make([][]byte, ticks+1)
	for k := range requests {
		steps := make([]any, n)
		for i, m := range members {
			dec := json.NewDecoder(bytes.NewReader(m.steps[k]))
			dec.UseNumber()
			if err := dec.Decode(&steps[i]); err != nil {
				b.Fatal(err)
			}
		}
		requests[k] = fmt.Appendf(nil, `{"id":%d,"method":"group.step","params":{"sessions":[%s],"steps_marshal":"%s"}}`,
			k+1, strings.Join(ids, ", "), base64.StdEncoding.EncodeToString(appendMarshal(nil, steps)))
	}
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		b.Skip(err)
	}
	defer null.Close()
	var sink bytes.Buffer
	var s *server
	// fresh starts a server with the members' sessions open and their
	// first step applied (the episodes start again every ticks steps).
	fresh := func() {
		if s != nil {
			s.running.Wait()
			close(s.lines)
			<-s.written
		}
		sink.Reset()
		s = newServer(testHost(&sink, kbDir), &sink, DefaultMaxLine)
		for _, m := range members {
			s.dispatch(m.open)
			s.running.Wait() // sessions named s1, s2, ... in this order
		}
		s.dispatch(requests[0])
		s.running.Wait()
		if bytes.Contains(sink.Bytes(), []byte(`"code"`)) {
			b.Fatalf("opening the sessions or their first step: %.2000s", sink.Bytes())
		}
		s.direct = null
	}
	fresh()
	b.ReportAllocs()
	k := 1
	for b.Loop() {
		if k == len(requests) {
			b.StopTimer()
			fresh()
			k = 1
			b.StartTimer()
		}
		s.dispatch(requests[k])
		k++
	}
	s.running.Wait()
	b.ReportMetric(float64(b.N*n)/b.Elapsed().Seconds(), "steps/s")
	close(s.lines)
	<-s.written
}

// appendMarshal appends v as Python's marshal.dumps(v, 4) writes the
// JSON values a step holds (no references: marshal reads them either way).
func appendMarshal(b []byte, v any) []byte {
	switch v := v.(type) {
	case nil:
		return append(b, 'N')
	case bool:
		if v {
			return append(b, 'T')
		}
		return append(b, 'F')
	case json.Number:
		if i, err := v.Int64(); err == nil && i >= math.MinInt32 && i <= math.MaxInt32 {
			return binary.LittleEndian.AppendUint32(append(b, 'i'), uint32(int32(i)))
		}
		f, _ := v.Float64()
		return binary.LittleEndian.AppendUint64(append(b, 'g'), math.Float64bits(f))
	case string:
		return append(binary.LittleEndian.AppendUint32(append(b, 'u'), uint32(len(v))), v...)
	case []any:
		b = binary.LittleEndian.AppendUint32(append(b, '['), uint32(len(v)))
		for _, x := range v {
			b = appendMarshal(b, x)
		}
		return b
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		b = append(b, '{')
		for _, k := range keys {
			b = appendMarshal(appendMarshal(b, k), v[k])
		}
		return append(b, '0')
	}
	panic(fmt.Sprintf("appendMarshal: %T", v))
}
