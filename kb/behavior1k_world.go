package kb

import (
	"bytes"
	"encoding/csv"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// loadB1KWorld reads the scene and asset files: categories and particle
// systems (output_hierarchy.json, category_mapping.csv), scenes and their
// rooms (combined_room_object_list.json), and object models with sizes,
// meta links and attachment links (object_inventory.json).
func loadB1KWorld(dir string, b *Base) (*world, problems) {
	var p problems
	w := newWorld()
	read := func(name string) []byte {
		data, err := os.ReadFile(filepath.Join(dir, name))
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
	if data := read(fileHierarchy); data != nil {
		worldHierarchy(data, b, w, &p)
	}
	if data := read(fileCategories); data != nil {
		worldCategories(data, b, w, &p)
	}
	if data := read(fileInventory); data != nil {
		worldInventory(data, w, &p)
	}
	if data := read(fileScenes); data != nil {
		worldScenes(data, w, &p)
	}
	return w, p
}

// worldHierarchy collects the categories and substances (particle systems)
// the hierarchy attaches to synsets.
func worldHierarchy(data []byte, b *Base, w *world, p *problems) {
	s := &jsonScanner{data: data}
	var node func(depth int)
	node = func(depth int) {
		if depth > maxJSONDepth {
			s.fail("nesting too deep")
			return
		}
		if !s.open('{') {
			return
		}
		id := NoSynset
		var cats, systems []string
		first := true
		for s.more(&first, '}') {
			switch k := string(s.key()); k {
			case "name":
				id, _ = b.Lookup(string(s.str()))
			case "categories", "substances":
				isCat := k == "categories"
				if !s.open('[') {
					break
				}
				lf := true
				for s.more(&lf, ']') {
					v := string(s.str())
					if isCat {
						cats = append(cats, v)
					} else {
						systems = append(systems, v)
					}
				}
			case "children":
				if !s.open('[') {
					break
				}
				cf := true
				for s.more(&cf, ']') {
					node(depth + 1)
				}
			default:
				s.skip(depth + 1)
			}
		}
		if id == NoSynset {
			return
		}
		for _, c := range cats {
			w.mapCategory(c, id)
		}
		for _, c := range systems {
			if _, seen := w.catSynset[c]; !seen {
				w.catSynset[c] = id
				w.synSystems[id] = append(w.synSystems[id], c)
			}
		}
	}
	if s.peek() == '[' {
		s.pos++
		first := true
		for s.more(&first, ']') {
			node(0)
		}
	} else {
		node(0)
	}
	s.report(p, fileHierarchy)
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
// links and attachment links; per model id its bounding-box size.
func worldInventory(data []byte, w *world, p *problems) {
	s := &jsonScanner{data: data}
	g := s.value(0)
	s.end()
	s.report(p, fileInventory)
	if s.failed || g.kind != gObject {
		return
	}
	src := source{file: fileInventory, data: data}
	models := map[string]*Model{}
	var order []string
	model := func(name string) *Model {
		if m, ok := models[name]; ok {
			return m
		}
		cat, id := splitModelName(name)
		m := &Model{Name: name, Category: cat, ID: id}
		models[name] = m
		order = append(order, name)
		return m
	}
	strList := func(v gval, keys ...string) []string {
		if v.kind != gList {
			p.errorf(src.locate(v, keys...), "inventory-type", "expected a list of names, found %s", v.text())
			return nil
		}
		out := make([]string, 0, len(v.list))
		for _, x := range v.list {
			if x.kind == gString {
				out = append(out, x.str)
			}
		}
		return out
	}
	sizes := map[string][3]float64{}
	for i, section := range g.keys {
		v := g.vals[i]
		if v.kind != gObject {
			continue // success flags and error lists
		}
		for j, name := range v.keys {
			x := v.vals[j]
			switch section {
			case "providers":
				if x.kind == gString {
					model(name).Provider = x.str
				}
			case "meta_links":
				model(name).MetaLinks = strList(x, section, name)
			case "attachment_pairs":
				if x.kind != gObject {
					p.errorf(src.locate(x, section, name), "inventory-type", "attachment pairs must be an object {M: [...], F: [...]}")
					continue
				}
				m := model(name)
				for k, side := range x.keys {
					switch side {
					case "M":
						m.MaleAttachments = strList(x.vals[k], section, name, side)
					case "F":
						m.FemaleAttachments = strList(x.vals[k], section, name, side)
					}
				}
			case "bounding_box_sizes":
				if x.kind != gList || len(x.list) != 3 || x.list[0].kind != gNumber || x.list[1].kind != gNumber || x.list[2].kind != gNumber {
					p.errorf(src.locate(x, section, name), "inventory-type", "a bounding box size must be [x, y, z] in metres")
					continue
				}
				sizes[name] = [3]float64{x.list[0].num, x.list[1].num, x.list[2].num}
			}
		}
	}
	for _, name := range order {
		m := models[name]
		if sz, ok := sizes[m.ID]; ok {
			m.Size, m.HasSize = sz, true
		} else if sz, ok := sizes[name]; ok {
			m.Size, m.HasSize = sz, true
		}
		w.addModel(*m)
	}
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
