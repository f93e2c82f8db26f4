package sampler

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"sync"

	"github.com/openbddl/bddl/internal/fsutil"
)

// Sampling lists: the reference narrows model choice per task and scene
// with a whitelist and a blacklist (OmniGibson/omnigibson/sampling/
// task_custom_lists.json, read by sampling/sample_b1k_tasks.py and
// applied by BDDLSampler._import_sampleable_objects in
// omnigibson/utils/bddl_utils.py). The layout, per task:
//
//	{"TASK": {"room_types": [...],
//	          "SCENE": {"whitelist": {SYNSET: {CATEGORY: {MODEL: SIZE}}},
//	                    "blacklist": {SYNSET: {CATEGORY: {MODEL: SIZE}}}}}}
//
// where SIZE is null, a scale (a number) or a bounding box [x, y, z] in
// metres. A synset the whitelist names keeps only the listed models of the
// listed categories (a category it does not list keeps none); a synset the
// blacklist names loses the listed models. See docs/sampler.md.

//go:generate go run ../tools/samplinglists -repo $BEHAVIOR1K_REPO -o lists_table.go

// maxListsBytes bounds a sampling-lists file (the reference's is 59 kB).
const maxListsBytes = 16 << 20

// Lists is a parsed sampling-lists file. The zero value and nil list
// nothing.
type Lists struct {
	tasks map[string]*taskLists
	file  listFile // as read, for Encode

	digestOnce sync.Once
	digest     string
}

// Digest identifies the lists' content ("sha256:" and 16 hex digits of
// their canonical encoding), as a header records what it was sampled
// with.
func (l *Lists) Digest() string {
	l.digestOnce.Do(func() {
		h := sha256.Sum256(l.Encode())
		l.digest = "sha256:" + hex.EncodeToString(h[:])[:16]
	})
	return l.digest
}

type taskLists struct {
	scenes map[string]*sceneLists
	// pooled is the union over the task's scenes, for a scene the file
	// does not name.
	pooled *sceneLists
}

// sceneLists is the lists of one task in one scene, per synset.
type sceneLists struct {
	syn map[string]*synsetLists
	// sizes are the models the whitelist gives a scale or bounding box,
	// over all its synsets (the first synset in name order wins).
	sizes map[string]listSize
}

// synsetLists is what one synset's whitelist and blacklist allow.
type synsetLists struct {
	// white is nil when the whitelist does not name the synset; else the
	// allowed models by knowledge-base name (CATEGORY-MODEL).
	white map[string]listSize
	black map[string]bool
}

// listSize is the size a list gives a model: none, a uniform scale, or a
// bounding box the model is scaled to per axis.
type listSize struct {
	kind uint8 // 0 none, sizeScale, sizeBox
	v    [3]float64
}

const (
	sizeScale = 1
	sizeBox   = 2
)

// listFile mirrors the file's layout (task → entry).
type listFile map[string]*taskEntry

type taskEntry struct {
	roomTypes    []string
	hasRoomTypes bool
	scenes       map[string]*sceneEntry
}

type sceneEntry struct {
	white, black modelTree // nil for JSON null
}

// modelTree is synset → category → model → size.
type modelTree map[string]map[string]map[string]listSize

// ListsError is a sampling-lists file that does not have the reference's
// layout: the file and the key path of the offending value.
type ListsError struct {
	File, Key, Message string
}

func (e *ListsError) Error() string {
	if e.Key == "" {
		return e.File + ": " + e.Message
	}
	return e.File + ": " + e.Key + ": " + e.Message
}

// ReadLists reads a sampling-lists file (a regular file, at most 16 MiB).
func ReadLists(path string) (*Lists, error) {
	data, err := fsutil.ReadFile(path, maxListsBytes)
	if err != nil {
		return nil, err
	}
	return ParseLists(path, data)
}

// ParseLists parses sampling lists in the reference's layout; name is
// the file named in errors.
func ParseLists(name string, data []byte) (*Lists, error) {
	var top map[string]json.RawMessage
	if err := decodeObject(data, &top); err != nil {
		return nil, &ListsError{File: name, Message: "want a JSON object of tasks: " + err.Error()}
	}
	f := listFile{}
	for _, task := range slices.Sorted(maps.Keys(top)) {
		e, err := parseTask(name, task, top[task])
		if err != nil {
			return nil, err
		}
		f[task] = e
	}
	return f.index(), nil
}

func parseTask(file, task string, raw json.RawMessage) (*taskEntry, error) {
	key := quoteKey(task)
	var m map[string]json.RawMessage
	if err := decodeObject(raw, &m); err != nil {
		return nil, &ListsError{File: file, Key: key, Message: "want an object of room_types and scenes"}
	}
	e := &taskEntry{scenes: map[string]*sceneEntry{}}
	for _, k := range slices.Sorted(maps.Keys(m)) {
		v := m[k]
		if k == "room_types" {
			if err := json.Unmarshal(v, &e.roomTypes); err != nil || isNull(v) {
				return nil, &ListsError{File: file, Key: key + ".room_types", Message: "want a list of room types"}
			}
			e.hasRoomTypes = true
			continue
		}
		skey := key + "." + quoteKey(k)
		var s map[string]json.RawMessage
		if err := decodeObject(v, &s); err != nil {
			return nil, &ListsError{File: file, Key: skey, Message: "want an object with whitelist and blacklist"}
		}
		se := &sceneEntry{}
		for _, part := range slices.Sorted(maps.Keys(s)) {
			if part != "whitelist" && part != "blacklist" {
				return nil, &ListsError{File: file, Key: skey + "." + quoteKey(part), Message: "unknown key (want whitelist or blacklist)"}
			}
		}
		for _, part := range []string{"whitelist", "blacklist"} {
			pv, ok := s[part]
			if !ok {
				return nil, &ListsError{File: file, Key: skey + "." + part, Message: "missing (null or {} for none)"}
			}
			t, err := parseTree(file, skey+"."+part, pv)
			if err != nil {
				return nil, err
			}
			if part == "whitelist" {
				se.white = t
			} else {
				se.black = t
			}
		}
		e.scenes[k] = se
	}
	return e, nil
}

// parseTree parses synset → category → model → size; nil for null.
func parseTree(file, key string, raw json.RawMessage) (modelTree, error) {
	if isNull(raw) {
		return nil, nil
	}
	var syns map[string]json.RawMessage
	if err := decodeObject(raw, &syns); err != nil {
		return nil, &ListsError{File: file, Key: key, Message: "want an object of synsets, or null"}
	}
	t := modelTree{}
	for _, syn := range slices.Sorted(maps.Keys(syns)) {
		skey := key + "." + quoteKey(syn)
		var cats map[string]json.RawMessage
		if err := decodeObject(syns[syn], &cats); err != nil {
			return nil, &ListsError{File: file, Key: skey, Message: "want an object of categories"}
		}
		t[syn] = map[string]map[string]listSize{}
		for _, cat := range slices.Sorted(maps.Keys(cats)) {
			ckey := skey + "." + quoteKey(cat)
			var models map[string]json.RawMessage
			if err := decodeObject(cats[cat], &models); err != nil {
				return nil, &ListsError{File: file, Key: ckey, Message: "want an object of models"}
			}
			t[syn][cat] = map[string]listSize{}
			for _, model := range slices.Sorted(maps.Keys(models)) {
				sz, err := parseSize(models[model])
				if err != nil {
					return nil, &ListsError{File: file, Key: ckey + "." + quoteKey(model), Message: err.Error()}
				}
				t[syn][cat][model] = sz
			}
		}
	}
	return t, nil
}

// parseSize reads null, a scale or a bounding box, as
// _import_sampleable_objects tells them apart (a number is a scale, a
// list of three a bounding box, anything else an error).
func parseSize(raw json.RawMessage) (listSize, error) {
	const want = "want null, a scale (a positive number) or a bounding box [x, y, z] in metres"
	if isNull(raw) {
		return listSize{}, nil
	}
	var x float64
	if err := json.Unmarshal(raw, &x); err == nil {
		if !(x > 0) || math.IsInf(x, 0) {
			return listSize{}, fmt.Errorf("%s, not %s", want, abbreviate(raw))
		}
		return listSize{kind: sizeScale, v: [3]float64{x, x, x}}, nil
	}
	var box []float64
	if err := json.Unmarshal(raw, &box); err != nil || len(box) != 3 {
		return listSize{}, fmt.Errorf("%s, not %s", want, abbreviate(raw))
	}
	for _, v := range box {
		if !(v > 0) || math.IsInf(v, 0) {
			return listSize{}, fmt.Errorf("%s, not %s", want, abbreviate(raw))
		}
	}
	return listSize{kind: sizeBox, v: [3]float64(box)}, nil
}

// decodeObject decodes a JSON object (not null) into a map.
func decodeObject(raw []byte, v *map[string]json.RawMessage) error {
	if isNull(raw) {
		return fmt.Errorf("null")
	}
	return json.Unmarshal(raw, v)
}

func isNull(raw []byte) bool { return string(bytes.TrimSpace(raw)) == "null" }

func quoteKey(k string) string { return strconv.Quote(k) }

func abbreviate(raw []byte) string {
	s := string(bytes.TrimSpace(raw))
	if len(s) > 40 {
		s = s[:40] + "…"
	}
	return s
}

func mapValues[V any](m map[string]V) []V {
	out := make([]V, 0, len(m))
	for _, k := range slices.Sorted(maps.Keys(m)) {
		out = append(out, m[k])
	}
	return out
}

// index builds the lookup tables: per task and scene, per synset, the
// allowed and refused models by knowledge-base name; and per task the
// pool over its scenes.
func (f listFile) index() *Lists {
	l := &Lists{tasks: map[string]*taskLists{}, file: f}
	for task, e := range f {
		tl := &taskLists{scenes: map[string]*sceneLists{}}
		pooled := &sceneLists{syn: map[string]*synsetLists{}}
		for _, scene := range slices.Sorted(maps.Keys(e.scenes)) {
			se := e.scenes[scene]
			sl := &sceneLists{syn: map[string]*synsetLists{}}
			get := func(s *sceneLists, syn string) *synsetLists {
				if s.syn[syn] == nil {
					s.syn[syn] = &synsetLists{}
				}
				return s.syn[syn]
			}
			for syn, cats := range se.white {
				own, pool := get(sl, syn), get(pooled, syn)
				own.white = map[string]listSize{}
				if pool.white == nil {
					pool.white = map[string]listSize{}
				}
				for cat, models := range cats {
					for model, sz := range models {
						name := cat + "-" + model
						own.white[name] = sz
						// Scenes in name order: the first scene's size
						// of a model wins in the pool.
						if _, ok := pool.white[name]; !ok {
							pool.white[name] = sz
						}
					}
				}
			}
			for syn, cats := range se.black {
				own, pool := get(sl, syn), get(pooled, syn)
				if own.black == nil {
					own.black = map[string]bool{}
				}
				if pool.black == nil {
					pool.black = map[string]bool{}
				}
				for cat, models := range cats {
					for model := range models {
						own.black[cat+"-"+model] = true
						pool.black[cat+"-"+model] = true
					}
				}
			}
			tl.scenes[scene] = sl
		}
		// In the pool a model one scene allows is not refused by another.
		for _, s := range pooled.syn {
			for name := range s.black {
				if _, ok := s.white[name]; ok {
					delete(s.black, name)
				}
			}
		}
		tl.pooled = pooled
		l.tasks[task] = tl
		for _, sl := range append(mapValues(tl.scenes), pooled) {
			for _, syn := range slices.Sorted(maps.Keys(sl.syn)) {
				for name, sz := range sl.syn[syn].white {
					if _, ok := sl.sizes[name]; sz.kind != 0 && !ok {
						if sl.sizes == nil {
							sl.sizes = map[string]listSize{}
						}
						sl.sizes[name] = sz
					}
				}
			}
		}
	}
	return l
}

// forTask is the lists that apply to a task in a scene: the scene's own
// when the file names it, else the pool of the task's scenes; nil when
// the file does not name the task.
func (l *Lists) forTask(task, scene string) *sceneLists {
	if l == nil {
		return nil
	}
	tl := l.tasks[task]
	if tl == nil {
		return nil
	}
	if sl := tl.scenes[scene]; sl != nil {
		return sl
	}
	return tl.pooled
}

// Tasks is the number of tasks the lists name.
func (l *Lists) Tasks() int {
	if l == nil {
		return 0
	}
	return len(l.tasks)
}

// of is the lists of one synset, nil when neither list names it.
func (sl *sceneLists) of(synset string) *synsetLists {
	if sl == nil {
		return nil
	}
	return sl.syn[synset]
}

// allows reports whether the lists keep model name (CATEGORY-MODEL) for
// the synset.
func (s *synsetLists) allows(name string) bool {
	if s == nil {
		return true
	}
	if s.white != nil {
		if _, ok := s.white[name]; !ok {
			return false
		}
	}
	return !s.black[name]
}

// size is the size the lists give model name, if any.
func (sl *sceneLists) size(name string) (listSize, bool) {
	if sl == nil {
		return listSize{}, false
	}
	z, ok := sl.sizes[name]
	return z, ok
}

// narrows reports whether the whitelist names the synset: its models are
// then the reference's own choice.
func (s *synsetLists) narrows() bool { return s != nil && s.white != nil }

// Encode writes the lists in the reference's layout, keys sorted, one
// line: the form the embedded table is generated in.
func (l *Lists) Encode() []byte {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, task := range slices.Sorted(maps.Keys(l.file)) {
		if i > 0 {
			b.WriteByte(',')
		}
		e := l.file[task]
		writeString(&b, task)
		b.WriteString(":{")
		first := true
		if e.hasRoomTypes {
			b.WriteString(`"room_types":`)
			rt, _ := json.Marshal(e.roomTypes)
			if e.roomTypes == nil {
				rt = []byte("[]")
			}
			b.Write(rt)
			first = false
		}
		for _, scene := range slices.Sorted(maps.Keys(e.scenes)) {
			if !first {
				b.WriteByte(',')
			}
			first = false
			se := e.scenes[scene]
			writeString(&b, scene)
			b.WriteString(`:{"whitelist":`)
			writeTree(&b, se.white)
			b.WriteString(`,"blacklist":`)
			writeTree(&b, se.black)
			b.WriteByte('}')
		}
		b.WriteByte('}')
	}
	b.WriteByte('}')
	return b.Bytes()
}

func writeString(b *bytes.Buffer, s string) {
	q, _ := json.Marshal(s)
	b.Write(q)
}

func writeTree(b *bytes.Buffer, t modelTree) {
	if t == nil {
		b.WriteString("null")
		return
	}
	b.WriteByte('{')
	for i, syn := range slices.Sorted(maps.Keys(t)) {
		if i > 0 {
			b.WriteByte(',')
		}
		writeString(b, syn)
		b.WriteString(":{")
		for j, cat := range slices.Sorted(maps.Keys(t[syn])) {
			if j > 0 {
				b.WriteByte(',')
			}
			writeString(b, cat)
			b.WriteString(":{")
			for k, model := range slices.Sorted(maps.Keys(t[syn][cat])) {
				if k > 0 {
					b.WriteByte(',')
				}
				writeString(b, model)
				b.WriteByte(':')
				sz := t[syn][cat][model]
				switch sz.kind {
				case sizeScale:
					b.WriteString(formatFloat(sz.v[0]))
				case sizeBox:
					b.WriteString("[" + formatFloat(sz.v[0]) + "," + formatFloat(sz.v[1]) + "," + formatFloat(sz.v[2]) + "]")
				default:
					b.WriteString("null")
				}
			}
			b.WriteByte('}')
		}
		b.WriteByte('}')
	}
	b.WriteByte('}')
}

func formatFloat(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// DefaultLists is the reference's own sampling lists, embedded
// (lists_table.go, generated by tools/samplinglists), parsed once.
var DefaultLists = sync.OnceValue(func() *Lists {
	l, err := ParseLists("sampler/lists_table.go", []byte(defaultListsJSON))
	if err != nil {
		panic("sampler: embedded sampling lists: " + err.Error())
	}
	return l
})

// modelScaleFor is the per-axis scale a list size gives a model of
// inventory size size (the bounding box divided by the model's native
// box, per axis with a box over 0.1 mm, as DatasetObject._post_load
// does), ok false when it gives none.
func (z listSize) modelScaleFor(size [3]float64) ([3]float64, bool) {
	switch z.kind {
	case sizeScale:
		return z.v, true
	case sizeBox:
		sc := [3]float64{1, 1, 1}
		for k := range sc {
			if size[k] > 1e-4 {
				sc[k] = z.v[k] / size[k]
			}
		}
		return sc, true
	}
	return [3]float64{}, false
}
