package kb

import (
	"bytes"
	"crypto/sha256"
	"slices"
	"sync"
)

// The scene and model tiers of a BEHAVIOR-1K world are cached like the
// Base (cache.go), each keyed by the hash of the one file it is built
// from. The model entry is an index: per category, where its models'
// records are, so that `kb show` decodes the dozen models of one synset
// rather than ten thousand. Only loads without data problems are cached,
// so that errors and warnings always come from the source.

// tierKey computes the key of a one-file tier and the file's hash.
func tierKey(dir, cdir, kind, file string) (key [32]byte, sum []byte, ok bool) {
	sh := newHasher(dir, cdir)
	defer sh.memo.save()
	key, ok = cacheKey(sourceSet{kind: kind, files: []string{file}}, func(name string) ([]byte, bool, bool) {
		s, present, ok := sh.hash(name)
		sum = s
		return s, present, ok && present
	})
	return key, sum, ok
}

// cachedTier loads a one-file tier through the cache: decode serves a
// hit; on a miss, parse reads data and encode's payload is stored when
// the file was read exactly as hashed and parse reported nothing. parse
// gets nil when the file cannot be read (read reports why).
func cachedTier(dir, kind, file string, read func(string) []byte, p *problems,
	decode func([]byte) bool, parse func([]byte), encode func() []byte) {
	cdir := cacheDir()
	var key [32]byte
	var sum []byte
	keyed := false
	if cdir != "" {
		if key, sum, keyed = tierKey(dir, cdir, kind, file); keyed {
			if payload := loadEntry(cdir, key); payload != nil && decode(payload) {
				return
			}
		}
	}
	data := read(file)
	parse(data) // nil when the file is missing or unreadable
	if data == nil {
		return
	}
	if keyed && len(p.errs) == 0 && len(p.findings) == 0 {
		if h := sha256.Sum256(data); bytes.Equal(h[:], sum) {
			storeEntry(cdir, key, encode())
		}
	}
}

// lazyModels serves a category's models from a cached model entry,
// decoding each category on first use.
type lazyModels struct {
	mu      sync.Mutex
	data    []byte
	records []int32            // offset of each model's record, in load order
	byCat   map[string][]int32 // category → indexes into records
	done    map[string]bool    // categories decoded into world.models
	all     bool               // every model decoded, modelIdx filled
}

func encodeModels(order []Model, hasAttachments bool) []byte {
	var recs cacheEncoder
	offsets := make([]int, len(order))
	for i, m := range order {
		offsets[i] = len(recs.buf)
		recs.str(m.Name)
		recs.str(m.ID)
		recs.str(m.Category)
		for _, x := range m.Size {
			recs.float(x)
		}
		recs.bool(m.HasSize)
		recs.strs(m.MetaLinks)
		recs.strs(m.MaleAttachments)
		recs.strs(m.FemaleAttachments)
		recs.str(m.Provider)
	}
	byCat := map[string][]int{}
	var cats []string
	for i, m := range order {
		if _, ok := byCat[m.Category]; !ok {
			cats = append(cats, m.Category)
		}
		byCat[m.Category] = append(byCat[m.Category], i)
	}
	slices.Sort(cats)
	var e cacheEncoder
	e.bool(hasAttachments)
	e.uint(uint64(len(order)))
	for _, off := range offsets {
		e.uint(uint64(off))
	}
	e.uint(uint64(len(cats)))
	for _, c := range cats {
		e.str(c)
		e.uint(uint64(len(byCat[c])))
		for _, i := range byCat[c] {
			e.uint(uint64(i))
		}
	}
	e.uint(uint64(len(recs.buf)))
	e.buf = append(e.buf, recs.buf...)
	return e.buf
}

// decodeModelsIndex reads the header of a model entry: the records'
// offsets and the category index. The records are decoded on demand.
func decodeModelsIndex(payload []byte, w *world) bool {
	d := newCacheDecoder(payload)
	has := d.bool()
	n := d.count(1)
	offsets := make([]int32, n)
	for i := range offsets {
		offsets[i] = int32(d.uint())
	}
	ncat := d.count(2)
	byCat := make(map[string][]int32, ncat)
	for range ncat {
		c := d.str()
		k := d.count(1)
		idx := make([]int32, k)
		for j := range idx {
			x := d.uint()
			if x >= uint64(n) {
				d.fail()
			}
			idx[j] = int32(x)
		}
		byCat[c] = idx
	}
	size := d.count(1)
	if d.bad || d.pos+size != len(payload) {
		return false
	}
	recs := payload[d.pos:]
	for _, off := range offsets {
		if off < 0 || int(off) >= len(recs) {
			return false
		}
	}
	w.hasAttachments = has
	w.lazy = &lazyModels{data: recs, records: offsets, byCat: byCat, done: map[string]bool{}}
	return true
}

// model decodes record i; ok is false when it is damaged.
func (lm *lazyModels) model(i int32) (Model, bool) {
	d := newCacheDecoder(lm.data)
	d.pos = int(lm.records[i])
	m := Model{Name: d.str(), ID: d.str(), Category: d.str()}
	for k := range m.Size {
		m.Size[k] = d.float()
	}
	m.HasSize = d.bool()
	m.MetaLinks = d.strs()
	m.MaleAttachments = d.strs()
	m.FemaleAttachments = d.strs()
	m.Provider = d.str()
	return m, !d.bad
}

// category returns the models of one category, sorted by name, decoding
// them on first use.
func (w *world) category(cat string) []Model {
	lm := w.lazy
	if lm == nil {
		return w.models[cat]
	}
	lm.mu.Lock()
	defer lm.mu.Unlock()
	if !lm.done[cat] && !lm.all {
		lm.done[cat] = true
		var ms []Model
		for _, i := range lm.byCat[cat] {
			if m, ok := lm.model(i); ok {
				ms = append(ms, m)
			}
		}
		slices.SortFunc(ms, func(a, b Model) int { return cmpString(a.Name, b.Name) })
		if ms != nil {
			w.models[cat] = ms
		}
	}
	return w.models[cat]
}

// allModels decodes every model (for lookups by name and checks), in load
// order as addModel needs for its first-wins id index.
func (w *world) allModels() {
	lm := w.lazy
	if lm == nil {
		return
	}
	lm.mu.Lock()
	defer lm.mu.Unlock()
	if lm.all {
		return
	}
	lm.all = true
	clear(w.models)
	for i := range lm.records {
		if m, ok := lm.model(int32(i)); ok {
			w.addModel(m)
		}
	}
	w.finish(tierModels)
}

func cmpString(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func encodeScenes(scenes []Scene) []byte {
	var e cacheEncoder
	e.uint(uint64(len(scenes)))
	for _, s := range scenes {
		e.str(s.Name)
		e.uint(uint64(len(s.Rooms)))
		for _, r := range s.Rooms {
			e.str(r.Name)
			e.str(r.Type)
			e.uint(uint64(len(r.Objects)))
			for _, o := range r.Objects {
				e.str(o.Model)
				e.str(o.Category)
				e.int(int64(o.Count))
			}
		}
	}
	return e.buf
}

func decodeScenes(payload []byte, w *world) bool {
	d := newCacheDecoder(payload)
	scenes := make([]Scene, d.count(2))
	for i := range scenes {
		s := Scene{Name: d.str()}
		if k := d.count(3); k > 0 {
			s.Rooms = make([]Room, k)
		}
		for j := range s.Rooms {
			r := Room{Name: d.str(), Type: d.str()}
			if k := d.count(3); k > 0 {
				r.Objects = make([]ModelCount, k)
			}
			for k := range r.Objects {
				r.Objects[k] = ModelCount{Model: d.str(), Category: d.str(), Count: int(d.int())}
			}
			s.Rooms[j] = r
		}
		scenes[i] = s
	}
	if d.bad || d.pos != len(payload) {
		return false
	}
	w.scenes = scenes
	return true
}

func encodeCategories(w *world) []byte {
	var e cacheEncoder
	cats := make([]string, 0, len(w.catSynset))
	for c := range w.catSynset {
		cats = append(cats, c)
	}
	slices.Sort(cats)
	e.uint(uint64(len(cats)))
	for _, c := range cats {
		e.str(c)
		e.id(w.catSynset[c])
	}
	for _, m := range []map[SynsetID][]string{w.synCats, w.synSystems} {
		ids := make([]SynsetID, 0, len(m))
		for id := range m {
			ids = append(ids, id)
		}
		slices.Sort(ids)
		e.uint(uint64(len(ids)))
		for _, id := range ids {
			e.id(id)
			e.strs(m[id])
		}
	}
	return e.buf
}

func decodeCategories(payload []byte, w *world, n int) bool {
	d := newCacheDecoder(payload)
	k := d.count(2)
	catSynset := make(map[string]SynsetID, k)
	for range k {
		c := d.str()
		catSynset[c] = d.id(n)
	}
	var maps [2]map[SynsetID][]string
	for i := range maps {
		k := d.count(2)
		maps[i] = make(map[SynsetID][]string, k)
		for range k {
			id := d.id(n)
			maps[i][id] = d.strs()
		}
	}
	if d.bad || d.pos != len(payload) {
		return false
	}
	w.catSynset, w.synCats, w.synSystems = catSynset, maps[0], maps[1]
	return true
}
