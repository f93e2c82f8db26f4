package kb

import (
	"encoding/binary"
	"encoding/json"
	"math"
	"unsafe"
)

// The binary form of a loaded BEHAVIOR-1K Base, as stored in the cache
// (cache.go). It holds what the sources say (names, edges, properties,
// parameters, rules, findings); what finish derives from those (children,
// ancestors, depths, thresholds, derived rules and their index) is
// recomputed on decode, so the cache does not depend on those
// representations. Every length is checked on decode: a damaged entry is
// a miss, never a panic.

// cacheFormat changes whenever the encoding or the meaning of an encoded
// field changes.
const cacheFormat = 2

type cacheEncoder struct{ buf []byte }

func (e *cacheEncoder) uint(x uint64) { e.buf = binary.AppendUvarint(e.buf, x) }
func (e *cacheEncoder) int(x int64)   { e.buf = binary.AppendVarint(e.buf, x) }
func (e *cacheEncoder) id(x SynsetID) { e.int(int64(x)) }
func (e *cacheEncoder) float(f float64) {
	e.buf = binary.LittleEndian.AppendUint64(e.buf, math.Float64bits(f))
}

func (e *cacheEncoder) bool(b bool) {
	if b {
		e.buf = append(e.buf, 1)
	} else {
		e.buf = append(e.buf, 0)
	}
}

func (e *cacheEncoder) str(s string) {
	e.uint(uint64(len(s)))
	e.buf = append(e.buf, s...)
}

func (e *cacheEncoder) strs(ss []string) {
	e.uint(uint64(len(ss)))
	for _, s := range ss {
		e.str(s)
	}
}

func (e *cacheEncoder) words(ws []uint64) {
	e.uint(uint64(len(ws)))
	for _, w := range ws {
		e.buf = binary.LittleEndian.AppendUint64(e.buf, w)
	}
}

func (e *cacheEncoder) ids(ids []SynsetID) {
	e.uint(uint64(len(ids)))
	for _, id := range ids {
		e.id(id)
	}
}

func (e *cacheEncoder) loc(l Location) {
	e.str(l.File)
	e.int(int64(l.Line))
	e.str(l.Key)
}

// cacheDecoder reads what cacheEncoder wrote. Strings are slices of one
// string sharing the entry's bytes, which are never modified: decoding
// allocates per record, not per name.
type cacheDecoder struct {
	data []byte
	text string // data as a string, for zero-copy names
	pos  int
	bad  bool
}

func newCacheDecoder(data []byte) *cacheDecoder {
	d := &cacheDecoder{data: data}
	if len(data) > 0 {
		d.text = unsafe.String(&data[0], len(data))
	}
	return d
}

func (d *cacheDecoder) fail() { d.bad, d.pos = true, len(d.data) }

func (d *cacheDecoder) uint() uint64 {
	x, n := binary.Uvarint(d.data[d.pos:])
	if n <= 0 {
		d.fail()
		return 0
	}
	d.pos += n
	return x
}

func (d *cacheDecoder) int() int64 {
	x, n := binary.Varint(d.data[d.pos:])
	if n <= 0 {
		d.fail()
		return 0
	}
	d.pos += n
	return x
}

// count reads a length and checks it against the bytes left, each element
// taking at least min bytes, so a damaged length cannot make a huge
// allocation.
func (d *cacheDecoder) count(min int) int {
	n := d.uint()
	if n > uint64((len(d.data)-d.pos)/max(min, 1)) {
		d.fail()
		return 0
	}
	return int(n)
}

// id reads a synset id and checks it against n synsets (NoSynset allowed).
func (d *cacheDecoder) id(n int) SynsetID {
	x := d.int()
	if x < int64(NoSynset) || x >= int64(n) {
		d.fail()
		return NoSynset
	}
	return SynsetID(x)
}

func (d *cacheDecoder) float() float64 {
	if len(d.data)-d.pos < 8 {
		d.fail()
		return 0
	}
	f := math.Float64frombits(binary.LittleEndian.Uint64(d.data[d.pos:]))
	d.pos += 8
	return f
}

func (d *cacheDecoder) bool() bool {
	if d.pos >= len(d.data) {
		d.fail()
		return false
	}
	b := d.data[d.pos]
	d.pos++
	return b != 0
}

func (d *cacheDecoder) str() string {
	n := d.count(1)
	s := d.text[d.pos : d.pos+n]
	d.pos += n
	return s
}

func (d *cacheDecoder) strs() []string {
	n := d.count(1)
	if n == 0 {
		return nil
	}
	out := make([]string, n)
	for i := range out {
		out[i] = d.str()
	}
	return out
}

func (d *cacheDecoder) words() []uint64 {
	n := d.count(8)
	out := make([]uint64, n)
	for i := range out {
		out[i] = binary.LittleEndian.Uint64(d.data[d.pos:])
		d.pos += 8
	}
	return out
}

func (d *cacheDecoder) ids(n int) []SynsetID {
	k := d.count(1)
	if k == 0 {
		return nil
	}
	out := make([]SynsetID, k)
	for i := range out {
		out[i] = d.id(n)
	}
	return out
}

func (d *cacheDecoder) loc() Location {
	return Location{File: d.str(), Line: int(d.int()), Key: d.str()}
}

// encodeBase writes b's source-level content (see the file comment).
func encodeBase(b *Base, hier []hierCategory) []byte {
	e := &cacheEncoder{buf: make([]byte, 0, 1<<20)}
	n := len(b.names)
	e.strs(b.names)
	e.words(b.custom)
	for i := 0; i < n; i++ {
		e.ids(b.Parents(SynsetID(i)))
	}
	e.ids(b.topo)

	e.strs(b.propTable.names[numBuiltinProperties:])
	e.uint(uint64(b.propWords))
	e.words(b.props)
	for i := 0; i < n; i++ {
		pps := b.params[i]
		e.uint(uint64(len(pps)))
		for _, pp := range pps {
			e.uint(uint64(pp.prop))
			e.uint(uint64(len(pp.params)))
			for _, prm := range pp.params {
				e.str(prm.Name)
				e.value(prm.Value)
			}
		}
	}

	var rules []Rule
	for _, r := range b.rules {
		if !r.Derived {
			rules = append(rules, r)
		}
	}
	e.uint(uint64(len(rules)))
	for _, r := range rules {
		e.rule(r)
	}

	e.strs(b.roomTypes)
	e.uint(uint64(len(b.pruned)))
	for k := range b.pruned {
		e.str(k)
	}
	e.uint(uint64(len(b.loadErrs)))
	for _, de := range b.loadErrs {
		e.loc(de.Location)
		e.str(de.Code)
		e.str(de.Message)
	}
	e.uint(uint64(len(b.findings)))
	for _, f := range b.findings {
		e.uint(uint64(f.Severity))
		e.str(f.Code)
		e.loc(f.Location)
		e.str(f.Message)
	}
	e.uint(uint64(len(hier)))
	for _, h := range hier {
		e.id(h.id)
		e.str(h.name)
		e.bool(h.system)
	}
	return e.buf
}

func (e *cacheEncoder) value(v Value) {
	e.uint(uint64(v.Kind))
	e.float(v.Number)
	e.str(v.Text)
	e.id(v.Synset)
	e.condSet(v.Conditions)
	e.uint(uint64(len(v.Substances)))
	for _, s := range v.Substances {
		e.id(s.Substance)
		e.str(s.Name)
		e.condSet(s.ConditionSet)
	}
	other := ""
	if v.Other != nil {
		// Unknown parameters are plain JSON values; they are rare.
		if data, err := json.Marshal(v.Other); err == nil {
			other = string(data)
		}
	}
	e.str(other)
}

func (e *cacheEncoder) condSet(c ConditionSet) {
	e.bool(c.Never)
	e.bool(c.Conditions != nil)
	e.uint(uint64(len(c.Conditions)))
	for _, x := range c.Conditions {
		e.str(x.State)
		e.bool(x.Value)
		e.id(x.Substance)
		e.str(x.SubstanceName)
	}
}

func (e *cacheEncoder) counts(cs []SynsetCount) {
	e.uint(uint64(len(cs)))
	for _, c := range cs {
		e.id(c.Synset)
		e.str(c.Name)
		e.int(int64(c.Count))
	}
}

func (e *cacheEncoder) states(ss []StateLiteral) {
	e.uint(uint64(len(ss)))
	for _, s := range ss {
		e.str(s.Predicate)
		e.ids(s.Args)
		e.strs(s.Names)
		e.bool(s.Value)
	}
}

func (e *cacheEncoder) rule(r Rule) {
	e.uint(uint64(r.Kind))
	e.str(r.Name)
	e.counts(r.Inputs)
	e.states(r.InputStates)
	e.counts(r.Outputs)
	e.states(r.OutputStates)
	e.counts(r.Containers)
	e.counts(r.HeatSources)
	e.counts(r.Machines)
	e.int(int64(r.Timesteps))
	e.counts(r.Solvents)
	e.bool(r.Never)
	e.loc(r.Location)
}

// decodeBase rebuilds a Base from encodeBase's bytes, or reports false
// when they are damaged. data must not be modified afterwards: names
// share its bytes.
func decodeBase(data []byte) (*Base, []hierCategory, bool) {
	d := newCacheDecoder(data)
	bd := newBuilder(0)
	bd.names = d.strs()
	n := len(bd.names)
	bd.byName = make(map[string]SynsetID, n)
	for i, name := range bd.names {
		key := name
		if hasUpper(key) {
			key = toLowerASCII(key)
		}
		bd.byName[key] = SynsetID(i)
	}
	custom := d.words()
	if len(custom) != (n+63)/64 {
		d.fail()
	}
	bd.custom = make([]bool, n)
	for i := range bd.custom {
		if !d.bad {
			bd.custom[i] = custom[i>>6]&(1<<(uint(i)&63)) != 0
		}
	}
	bd.parents = make([][]SynsetID, n)
	for i := range bd.parents {
		bd.parents[i] = d.ids(n)
	}
	topo := d.ids(n)
	if len(topo) != n {
		d.fail()
	}
	// ids admits NoSynset (a value may name no synset); the taxonomy may
	// not: every parent is a synset, and topo orders each synset once.
	seen := make([]bool, n)
	for _, t := range topo {
		if t < 0 || seen[t] {
			d.fail()
			break
		}
		seen[t] = true
	}
	for _, ps := range bd.parents {
		for _, p := range ps {
			if p < 0 {
				d.fail()
			}
		}
	}

	for _, name := range d.strs() {
		bd.propTable.intern([]byte(name))
	}
	propWords := int(d.uint())
	props := d.words()
	if d.bad || propWords != max((len(bd.propTable.names)+63)/64, 1) || len(props) != n*propWords {
		return nil, nil, false
	}
	bd.params = make([][]propertyParams, n)
	nprops := len(bd.propTable.names)
	for i := range bd.params {
		k := d.count(2)
		if k == 0 {
			continue
		}
		pps := make([]propertyParams, k)
		for j := range pps {
			p := d.uint()
			if p >= uint64(nprops) {
				d.fail()
			}
			pps[j].prop = Property(p)
			pps[j].params = make([]Param, d.count(2))
			for m := range pps[j].params {
				pps[j].params[m] = Param{Name: d.str(), Value: d.value(n)}
			}
		}
		bd.params[i] = pps
	}

	bd.rules = make([]Rule, d.count(4))
	for i := range bd.rules {
		bd.rules[i] = d.rule(n)
	}
	bd.roomTypes = d.strs()
	for k := d.count(1); k > 0; k-- {
		bd.pruned[d.str()] = struct{}{}
	}
	if k := d.count(4); k > 0 {
		bd.errs = make(DataErrors, k)
		for i := range bd.errs {
			bd.errs[i] = DataError{Location: d.loc(), Code: d.str(), Message: d.str()}
		}
	}
	if k := d.count(4); k > 0 {
		bd.findings = make([]Finding, k)
		for i := range bd.findings {
			bd.findings[i] = Finding{Severity: Severity(d.uint()), Code: d.str(), Location: d.loc(), Message: d.str()}
		}
	}
	hier := make([]hierCategory, d.count(3))
	for i := range hier {
		hier[i] = hierCategory{id: d.id(n), name: d.str(), system: d.bool()}
	}
	if d.bad || d.pos != len(d.data) {
		return nil, nil, false
	}
	return bd.rebuild(topo, propWords, props, Origin{Format: "behavior1k"}), hier, true
}

func (d *cacheDecoder) value(n int) Value {
	v := Value{Kind: ValueKind(d.uint()), Number: d.float(), Text: d.str(), Synset: d.id(n)}
	v.Conditions = d.condSet(n)
	if k := d.count(3); k > 0 {
		v.Substances = make([]SubstanceConditions, k)
		for i := range v.Substances {
			v.Substances[i] = SubstanceConditions{Substance: d.id(n), Name: d.str(), ConditionSet: d.condSet(n)}
		}
	}
	if other := d.str(); other != "" {
		if err := json.Unmarshal([]byte(other), &v.Other); err != nil {
			d.fail()
		}
	}
	return v
}

func (d *cacheDecoder) condSet(n int) ConditionSet {
	c := ConditionSet{Never: d.bool()}
	nonNil := d.bool()
	k := d.count(4)
	if nonNil {
		c.Conditions = make([]Condition, k)
	}
	for i := 0; i < k && nonNil; i++ {
		c.Conditions[i] = Condition{State: d.str(), Value: d.bool(), Substance: d.id(n), SubstanceName: d.str()}
	}
	return c
}

func (d *cacheDecoder) counts(n int) []SynsetCount {
	k := d.count(3)
	if k == 0 {
		return nil
	}
	out := make([]SynsetCount, k)
	for i := range out {
		out[i] = SynsetCount{Synset: d.id(n), Name: d.str(), Count: int(d.int())}
	}
	return out
}

func (d *cacheDecoder) states(n int) []StateLiteral {
	k := d.count(4)
	if k == 0 {
		return nil
	}
	out := make([]StateLiteral, k)
	for i := range out {
		out[i] = StateLiteral{Predicate: d.str(), Args: d.ids(n), Names: d.strs(), Value: d.bool()}
	}
	return out
}

func (d *cacheDecoder) rule(n int) Rule {
	return Rule{
		Kind: RuleKind(d.uint()), Name: d.str(),
		Inputs: d.counts(n), InputStates: d.states(n),
		Outputs: d.counts(n), OutputStates: d.states(n),
		Containers: d.counts(n), HeatSources: d.counts(n), Machines: d.counts(n),
		Timesteps: int(d.int()), Solvents: d.counts(n), Never: d.bool(),
		Location: d.loc(),
	}
}
