package kb

import (
	"bytes"
	"encoding/csv"
	"encoding/hex"
	"errors"
	"io"
	"io/fs"
	"path/filepath"
	"strings"
)

// loadB1KTier reads the files of one world tier: categories and particle
// systems (from the hierarchy, collected at load, and category_mapping.csv),
// scenes and their rooms (combined_room_object_list.json), or object models
// with sizes, meta links and attachment links (object_inventory.json).
func loadB1KTier(dir string, b *Base, cats []hierCategory, t worldTier, w *world, p *problems) {
	read := func(name string) []byte {
		data, err := readRegular(filepath.Join(dir, name), maxDataFile)
		if err != nil {
			if !errors.Is(err, fs.ErrNotExist) {
				p.errorf(Location{File: name}, "missing-file", "cannot read: %v", err)
			} else {
				p.notef(SeverityWarning, Location{File: name}, "missing-file", "%s is missing", name)
			}
			return nil
		}
		return stripBOM(data)
	}
	switch t {
	case tierCategories:
		apply := func(data []byte) {
			for _, c := range cats {
				if !c.system {
					w.mapCategory(c.name, c.id)
				} else if _, seen := w.catSynset[c.name]; !seen {
					w.catSynset[c.name] = c.id
					w.synSystems[c.id] = append(w.synSystems[c.id], c.name)
				}
			}
			if data != nil {
				worldCategories(data, b, w, p)
			}
		}
		if b.cacheKey == ([32]byte{}) {
			// Not from the cache: the categories depend on the Base's
			// synset ids, which only its key pins down.
			apply(read(fileCategories))
			return
		}
		cachedTier(dir, "categories of "+hex.EncodeToString(b.cacheKey[:]), fileCategories, read, p,
			func(payload []byte) bool { return decodeCategories(payload, w, b.NumSynsets()) },
			apply,
			func() []byte { return encodeCategories(w) })
	case tierScenes:
		cachedTier(dir, "scenes", fileScenes, read, p,
			func(payload []byte) bool { return decodeScenes(payload, w) },
			func(data []byte) {
				if data != nil {
					worldScenes(data, w, p)
				}
			},
			func() []byte { return encodeScenes(w.scenes) })
	case tierModels:
		var order []Model
		cachedTier(dir, "models", fileInventory, read, p,
			func(payload []byte) bool { return decodeModelsIndex(payload, w) },
			func(data []byte) {
				if data != nil {
					order = worldInventory(data, w, p)
				}
			},
			func() []byte { return encodeModels(order, w.hasAttachments) })
	}
}

// worldCategories reads category_mapping.csv (category → synset).
func worldCategories(data []byte, b *Base, w *world, p *problems) {
	r := csv.NewReader(bytes.NewReader(data))
	r.FieldsPerRecord = -1
	r.ReuseRecord = true
	header, err := r.Read()
	if err != nil {
		p.errorf(Location{File: fileCategories, Line: 1}, "syntax", "invalid CSV header: %v", err)
		return
	}
	header = append([]string(nil), header...)
	catCol, synCol := -1, -1
	for i, h := range header {
		switch strings.TrimSpace(h) {
		case "category":
			catCol = i
		case "synset":
			synCol = i
		}
	}
	if catCol < 0 || synCol < 0 {
		p.errorf(Location{File: fileCategories, Line: 1}, "csv-header", "category_mapping.csv needs category and synset columns")
		return
	}
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		line, _ := r.FieldPos(0)
		loc := Location{File: fileCategories, Line: line}
		if err != nil {
			p.errorf(loc, "syntax", "invalid CSV: %v", err)
			return
		}
		if catCol >= len(rec) || synCol >= len(rec) {
			p.errorf(loc, "csv-type", "short row")
			continue
		}
		cat, syn := strings.TrimSpace(rec[catCol]), strings.TrimSpace(rec[synCol])
		if cat == "" || syn == "" {
			continue
		}
		loc.Key = cat
		id, ok := b.Lookup(syn)
		if !ok {
			if b.IsPruned(syn) {
				p.notef(SeverityInfo, loc, "pruned-synset", "category %s maps to pruned synset %s", cat, syn)
			} else {
				p.errorf(loc, "unknown-synset", "category %s maps to unknown synset %q", cat, syn)
			}
			continue
		}
		if prev, seen := w.catSynset[cat]; seen && prev != id {
			p.notef(SeverityWarning, loc, "category-mismatch", "category %s maps to %s here but to %s in %s",
				cat, syn, b.Name(prev), fileHierarchy)
			continue
		}
		w.mapCategory(cat, id)
	}
}

// worldInventory reads object_inventory.json: per model its provider, meta
// links and attachment links; per model id its bounding-box size. It
// streams the file without building a value tree, and names are slices of
// one copy of the file, so the 3 MB inventory costs one pass and a few
// allocations per model.
func worldInventory(data []byte, w *world, p *problems) []Model {
	text := string(data)
	s := &jsonScanner{data: data}
	// str returns the next string as a slice of text when it has no
	// escapes (the common case), else a copy.
	str := func() string {
		b := s.str()
		if len(b) == 0 {
			return ""
		}
		if end := s.pos - 1; end >= len(b) && &b[0] == &data[end-len(b)] {
			return text[end-len(b) : end]
		}
		return string(b)
	}
	at := func(pos int, keys ...string) Location {
		return Location{File: fileInventory, Line: lineAt(data, pos), Key: keyPath(keys...)}
	}
	strList := func(keys ...string) []string {
		pos := s.pos
		if s.peek() != '[' {
			s.skip(3)
			p.errorf(at(pos, keys...), "inventory-type", "expected a list of names")
			return nil
		}
		s.pos++
		var out []string
		first := true
		for s.more(&first, ']') {
			if s.peek() == '"' {
				out = append(out, str())
			} else {
				s.skip(4)
			}
		}
		return out
	}
	index := map[string]int32{}
	var models []Model
	model := func(name string) *Model {
		if i, ok := index[name]; ok {
			return &models[i]
		}
		cat, id := splitModelName(name)
		index[name] = int32(len(models))
		models = append(models, Model{Name: name, Category: cat, ID: id})
		return &models[len(models)-1]
	}
	sizes := map[string][3]float64{}
	if !s.open('{') {
		s.report(p, fileInventory)
		return nil
	}
	first := true
	for s.more(&first, '}') {
		section := str()
		if s.peek() != ':' {
			s.fail("expected ':' after key, found " + s.found())
			break
		}
		s.pos++
		switch section {
		case "providers", "meta_links", "attachment_pairs", "bounding_box_sizes":
		default:
			s.skip(1) // success flags, error lists, needed_by
			continue
		}
		if s.peek() != '{' {
			s.skip(1)
			continue
		}
		s.pos++
		mfirst := true
		for s.more(&mfirst, '}') {
			name := str()
			if s.peek() != ':' {
				s.fail("expected ':' after key, found " + s.found())
				break
			}
			s.pos++
			pos := s.pos
			switch section {
			case "providers":
				if s.peek() == '"' {
					model(name).Provider = str()
				} else {
					s.skip(2)
				}
			case "meta_links":
				links := strList(section, name)
				model(name).MetaLinks = links
			case "attachment_pairs":
				if s.peek() != '{' {
					s.skip(2)
					p.errorf(at(pos, section, name), "inventory-type", "attachment pairs must be an object {M: [...], F: [...]}")
					continue
				}
				s.pos++
				m := model(name)
				sfirst := true
				for s.more(&sfirst, '}') {
					switch side := string(s.key()); side {
					case "M":
						m.MaleAttachments = strList(section, name, side)
					case "F":
						m.FemaleAttachments = strList(section, name, side)
					default:
						s.skip(3)
					}
				}
			case "bounding_box_sizes":
				var sz [3]float64
				n := 0
				ok := s.peek() == '['
				if ok {
					s.pos++
					lfirst := true
					for s.more(&lfirst, ']') {
						c := s.peek()
						if n < 3 && (c == '-' || '0' <= c && c <= '9') {
							sz[n] = s.number()
						} else {
							s.skip(3)
							ok = false
						}
						n++
					}
				} else {
					s.skip(2)
				}
				if !ok || n != 3 {
					p.errorf(at(pos, section, name), "inventory-type", "a bounding box size must be [x, y, z] in metres")
					continue
				}
				sizes[name] = sz
			}
		}
	}
	s.end()
	s.report(p, fileInventory)
	if s.failed {
		return nil
	}
	for i := range models {
		m := &models[i]
		if sz, ok := sizes[m.ID]; ok {
			m.Size, m.HasSize = sz, true
		} else if sz, ok := sizes[m.Name]; ok {
			m.Size, m.HasSize = sz, true
		}
		w.addModel(*m)
	}
	return models
}

// worldScenes reads combined_room_object_list.json: {"scenes": {scene:
// {room instance: {model: count}}}}.
func worldScenes(data []byte, w *world, p *problems) {
	s := &jsonScanner{data: data}
	g := s.value(0)
	s.end()
	s.report(p, fileScenes)
	if s.failed {
		return
	}
	src := source{file: fileScenes, data: data}
	scenes, ok := g.field("scenes")
	if !ok || scenes.kind != gObject {
		p.errorf(src.locate(g), "scenes-type", "expected an object with a scenes member")
		return
	}
	for i, name := range scenes.keys {
		rooms := scenes.vals[i]
		if rooms.kind != gObject {
			p.errorf(src.locate(rooms, "scenes", name), "scenes-type", "a scene must map room instances to models")
			continue
		}
		sc := Scene{Name: name}
		for j, room := range rooms.keys {
			objs := rooms.vals[j]
			if objs.kind != gObject {
				p.errorf(src.locate(objs, "scenes", name, room), "scenes-type", "a room must map models to counts")
				continue
			}
			r := Room{Name: room, Type: RoomType(room)}
			for k, m := range objs.keys {
				c := objs.vals[k]
				if c.kind != gNumber || c.num < 0 || c.num != float64(int(c.num)) {
					p.errorf(src.locate(c, "scenes", name, room, m), "scenes-type", "model count must be a non-negative integer, found %s", c.text())
					continue
				}
				cat, _ := splitModelName(m)
				r.Objects = append(r.Objects, ModelCount{Model: m, Category: cat, Count: int(c.num)})
			}
			sc.Rooms = append(sc.Rooms, r)
		}
		w.scenes = append(w.scenes, sc)
	}
}
