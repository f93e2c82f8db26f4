package episode

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"math"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openbddl/bddl/internal/pymarshal"
)

// marshalWriter writes JSON values as Python's marshal.dumps(v, 4)
// does: each str interned once (with the reference flag) and written
// again as a back-reference, as Python writes a step's keys and names.
type marshalWriter struct {
	b    []byte
	strs map[string]uint32
	refs uint32
}

func (w *marshalWriter) value(v any) {
	switch v := v.(type) {
	case nil:
		w.b = append(w.b, 'N')
	case bool:
		if v {
			w.b = append(w.b, 'T')
		} else {
			w.b = append(w.b, 'F')
		}
	case json.Number:
		if i, err := v.Int64(); err == nil {
			if i >= math.MinInt32 && i <= math.MaxInt32 {
				w.b = binary.LittleEndian.AppendUint32(append(w.b, 'i'), uint32(int32(i)))
				return
			}
			w.long(big.NewInt(i))
			return
		}
		f, _ := v.Float64()
		w.b = binary.LittleEndian.AppendUint64(append(w.b, 'g'), math.Float64bits(f))
	case string:
		if i, ok := w.strs[v]; ok {
			w.b = binary.LittleEndian.AppendUint32(append(w.b, 'r'), i)
			return
		}
		w.strs[v] = w.refs
		w.refs++
		w.b = append(binary.LittleEndian.AppendUint32(append(w.b, 'u'|0x80), uint32(len(v))), v...)
	case []any:
		w.b = binary.LittleEndian.AppendUint32(append(w.b, '['), uint32(len(v)))
		for _, x := range v {
			w.value(x)
		}
	case orderedDict:
		w.b = append(w.b, '{')
		for _, kv := range v {
			w.value(kv.k)
			w.value(kv.v)
		}
		w.b = append(w.b, '0')
	}
}

func (w *marshalWriter) long(v *big.Int) {
	neg := v.Sign() < 0
	a := new(big.Int).Abs(v)
	var digits []uint16
	for a.Sign() > 0 {
		digits = append(digits, uint16(new(big.Int).And(a, big.NewInt(1<<15-1)).Int64()))
		a.Rsh(a, 15)
	}
	n := int32(len(digits))
	if neg {
		n = -n
	}
	w.b = binary.LittleEndian.AppendUint32(append(w.b, 'l'), uint32(n))
	for _, d := range digits {
		w.b = binary.LittleEndian.AppendUint16(w.b, d)
	}
}

// orderedDict is a JSON object with its keys in order (Python's dicts
// keep theirs, and marshal writes them so).
type orderedDict []struct {
	k string
	v any
}

// decodeOrdered reads JSON into nil, bool, json.Number, string, []any
// and orderedDict; ok is false for text that is not one JSON value.
func decodeOrdered(data []byte) (any, bool) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := readOrdered(dec)
	if err != nil {
		return nil, false
	}
	if _, err := dec.Token(); err == nil {
		return nil, false
	}
	return v, true
}

func readOrdered(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch tok := tok.(type) {
	case json.Delim:
		if tok == '[' {
			var out []any
			for dec.More() {
				v, err := readOrdered(dec)
				if err != nil {
					return nil, err
				}
				out = append(out, v)
			}
			_, err := dec.Token()
			return out, err
		}
		out := orderedDict{}
		for dec.More() {
			k, err := dec.Token()
			if err != nil {
				return nil, err
			}
			v, err := readOrdered(dec)
			if err != nil {
				return nil, err
			}
			out = append(out, struct {
				k string
				v any
			}{k.(string), v})
		}
		_, err := dec.Token()
		return out, err
	}
	return tok, nil
}

// marshalList marshals JSON values as one list.
func marshalList(items ...any) []byte {
	w := marshalWriter{strs: map[string]uint32{}}
	w.value(items)
	return w.b
}

// compareMarshal feeds each step of doc to one Stepper as its line
// (MarshalStep.line: what groupLines built) and to another as the dict:
// the same step infos, the same errors, the same record at the end.
func compareMarshal(t *testing.T, header []byte, doc *pymarshal.Doc, numbers []int64, lenient bool) {
	t.Helper()
	a, b := stepperOf(t, header, lenient), stepperOf(t, header, lenient)
	for i := range doc.Items {
		m := MarshalStep{Doc: doc, Item: i}
		if numbers != nil {
			m.Number, m.HasNumber = numbers[i], true
		}
		line := m.Line()
		if len(line) != m.length() {
			t.Fatalf("item %d: line %q, length %d", i, line, m.length())
		}
		infoA, errA := a.Feed(line)
		infoB, errB := b.FeedMarshal(&m)
		if errText(errA) != errText(errB) || infoA != infoB {
			t.Fatalf("item %d %.200s: Feed %+v, %v; FeedMarshal %+v, %v", i, line, infoA, errA, infoB, errB)
		}
	}
	if ra, rb := resultText(t, a), resultText(t, b); ra != rb {
		t.Errorf("Feed ends in %s\nFeedMarshal in %s", ra, rb)
	}
}

// TestFeedMarshal compares FeedMarshal with Feed on every recording of
// testdata (good and bad), each step marshalled as Python would write
// it, with and without numbers given beside the steps.
func TestFeedMarshal(t *testing.T) {
	files := testRecordings(t)
	direct := 0
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		all := bytes.Split(bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n")), []byte("\n"))
		if _, err := bindHeader(t, all[0], false); err != nil {
			continue
		}
		var items []any
		var numbers []int64
		for _, l := range all[1:] {
			if v, ok := decodeOrdered(l); ok {
				items = append(items, v)
				numbers = append(numbers, int64(len(numbers)*2))
			}
		}
		src := marshalList(items...)
		doc, err := pymarshal.Scan(src, pymarshal.LimitsFor(len(src), 1<<30), len(items))
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		for i := range doc.Items {
			if stepperOf(t, all[0], false).c.r.dec.parseStepMarshal(&MarshalStep{Doc: doc, Item: i}) {
				direct++
			}
		}
		for _, lenient := range []bool{false, true} {
			t.Run(filepath.Base(file), func(t *testing.T) {
				compareMarshal(t, all[0], doc, nil, lenient)
				compareMarshal(t, all[0], doc, numbers, lenient)
			})
		}
	}
	t.Logf("%d steps of testdata read from their dict", direct)
	if direct < 20 {
		t.Errorf("%d steps of testdata read from their dict, want most", direct)
	}
}

// TestFeedMarshalCases: steps read from the dict, and steps given up to
// their line (whose parser then warns or refuses as for any line).
func TestFeedMarshalCases(t *testing.T) {
	for _, tc := range []struct {
		name, step string
		number     int64 // -1: none
		direct     bool  // read from the dict (else from its line)
		err, warn  string
	}{
		{"facts", `{"step":3,"facts":[["cooked","apple.n.01_1"]],"t":0.5}`, -1, true, "", ""},
		{"numbered", `{"facts":[["cooked","apple.n.01_1"]]}`, 4, true, "", ""},
		{"the dict's number wins", `{"step":9}`, 4, true, "", ""},
		{"empty, numbered", `{}`, 4, true, "", ""},
		{"no number", `{"t":1}`, -1, false, "p.jsonl:2: step: missing: every step line needs its step number", ""},
		{"float step", `{"step":1.0}`, -1, false, "p.jsonl:2: step: expected an integer, found 1.0", ""},
		{"long step", `{"step":9007199254740993}`, -1, false, "", ""},
		{"unknown instance", `{"step":0,"facts":[["cooked","pear.n.01_1"]]}`, -1, false,
			`p.jsonl:2: step 0: facts[0]: unknown instance "pear.n.01_1" (not in the activity's :objects)`, ""},
		{"unknown field", `{"step":0,"colour":"red"}`, -1, false, "", `unknown field "colour" ignored`},
		{"box upside down", `{"step":0,"objects":{"apple.n.01_1":{"aabb":[1,0,0,0,1,1]}}}`, -1, false,
			"p.jsonl:2: step 0: objects.apple.n.01_1.aabb: min x 1 > max x 0", ""},
		{"NaN", `{"step":0,"objects":{"apple.n.01_1":{"pos":[NaN,0,0]}}}`, -1, false,
			"p.jsonl:2: step 0: objects.apple.n.01_1.pos: NaN and infinity are not numbers", ""},
		{"fields", `{"step":0,"objects":{"apple.n.01_1":{"pos":[1,2,3],"quat":[0,0,0,1],"exists":true,"temperature":20,"open_fraction":null,"contacts":[]}}}`, -1, true, "", ""},
		{"joints", `{"step":0,"objects":{"apple.n.01_1":{"joints":{"j":{"q":0.5,"lo":0,"hi":1}}}}}`, -1, false, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, ok := decodeOrdered([]byte(strings.ReplaceAll(tc.step, "NaN", "1e999")))
			if !ok {
				t.Fatalf("not JSON: %s", tc.step)
			}
			src := marshalList(v)
			if strings.Contains(tc.step, "NaN") { // 1e999 reads as +Inf: write NaN's bits
				src = bytes.Replace(src, binary.LittleEndian.AppendUint64([]byte{'g'}, math.Float64bits(math.Inf(1))),
					binary.LittleEndian.AppendUint64([]byte{'g'}, math.Float64bits(math.NaN())), 1)
			}
			doc, err := pymarshal.Scan(src, pymarshal.LimitsFor(len(src), 1<<20), 1)
			if err != nil {
				t.Fatal(err)
			}
			var numbers []int64
			if tc.number >= 0 {
				numbers = []int64{tc.number}
			}
			compareMarshal(t, []byte(prefixHeader), doc, numbers, false)
			st := stepperOf(t, []byte(prefixHeader), false)
			m := MarshalStep{Doc: doc, Number: tc.number, HasNumber: tc.number >= 0}
			if direct := stepperOf(t, []byte(prefixHeader), false).c.r.dec.parseStepMarshal(&m); direct != tc.direct {
				t.Errorf("%s read from the dict: %v, want %v", tc.step, direct, tc.direct)
			}
			_, err = st.FeedMarshal(&m)
			if errText(err) != tc.err {
				t.Errorf("FeedMarshal(%s): %v; want %q", tc.step, err, tc.err)
			}
			if w := strings.Join(st.Result(false).Warnings, "\n"); !strings.Contains(w, tc.warn) {
				t.Errorf("FeedMarshal(%s): warnings %q; want %q", tc.step, w, tc.warn)
			}
		})
	}
}

// FuzzMarshalStep: on any marshal data whose items are dicts, FeedMarshal
// agrees with Feed given the item's line (never a panic).
func FuzzMarshalStep(f *testing.F) {
	for _, s := range []string{`{"step":0}`, `{"step":1,"facts":[["cooked","apple.n.01_1"]],"t":0.5}`,
		`{"step":2,"objects":{"apple.n.01_1":{"pos":[1,2,3],"contacts":["apple.n.01_1"],"room":"kitchen_0"}}}`,
		`{"step":3,"false":[["ontop","apple.n.01_1","apple.n.01_1"]],"unset":null,"objects":null}`} {
		v, _ := decodeOrdered([]byte(s))
		f.Add(marshalList(v, v), int64(-1))
		f.Add(marshalList(v), int64(5))
	}
	prog := testProgram(f, nil)
	bind := func(t *testing.T) *Stepper { return headerStepper(t, prog, []byte(prefixHeader), "p.jsonl") }
	f.Fuzz(func(t *testing.T, src []byte, number int64) {
		doc, err := pymarshal.Scan(src, pymarshal.LimitsFor(len(src), 1<<16), 64)
		if err != nil {
			return
		}
		a, b := bind(t), bind(t)
		for i, it := range doc.Items {
			if it.Kind != '{' || it.Depth > 32 {
				continue
			}
			m := MarshalStep{Doc: doc, Item: i, Number: number, HasNumber: number >= 0}
			infoA, errA := a.Feed(m.Line())
			infoB, errB := b.FeedMarshal(&m)
			if errText(errA) != errText(errB) || infoA != infoB {
				t.Fatalf("item %d %.200s: Feed %+v, %v; FeedMarshal %+v, %v", i, m.Line(), infoA, errA, infoB, errB)
			}
		}
		if resultText(t, a) != resultText(t, b) {
			t.Fatal("Feed and FeedMarshal end in different states")
		}
	})
}

// BenchmarkStepperFeedMarshal feeds the symbolic steps of the median
// activity as bddl serve's group.step does with steps_marshal: each step
// read from its marshalled dict (marshal), against the same step's JSON
// line given to Feed (json, what the server did before: the line written
// from the marshal data, then parsed). Per step, evaluation included.
func BenchmarkStepperFeedMarshal(b *testing.B) {
	a := medianActivity()
	data := synth(b, a, SynthSymbolic)
	header, rest, _ := bytes.Cut(data, []byte("\n"))
	var items []any
	for _, l := range bytes.Split(bytes.TrimSpace(rest), []byte("\n"))[:2000] {
		v, ok := decodeOrdered(l)
		if !ok {
			b.Fatalf("not JSON: %s", l)
		}
		items = append(items, v)
	}
	src := marshalList(items...)
	doc, err := pymarshal.Scan(src, pymarshal.LimitsFor(len(src), 1<<30), len(items))
	if err != nil {
		b.Fatal(err)
	}
	for _, mode := range []string{"json", "marshal"} {
		b.Run("steps="+mode, func(b *testing.B) {
			b.ReportAllocs()
			steps := 0
			for b.Loop() {
				st := headerStepper(b, a.prog, header, "bench.jsonl")
				for i := range doc.Items {
					m := MarshalStep{Doc: doc, Item: i}
					if mode == "json" {
						_, err = st.Feed(m.Line())
					} else {
						_, err = st.FeedMarshal(&m)
					}
					if err != nil {
						b.Fatal(err)
					}
					steps++
				}
			}
			b.ReportMetric(float64(steps)/b.Elapsed().Seconds(), "steps/s")
		})
	}
}
