package kb

import (
	"fmt"
	"maps"
	"math"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/openbddl/bddl/internal/yamlguard"
)

// LoadYAML loads a knowledge base written in this package's YAML format
// (see the package documentation and default.yaml). name is used in
// locations. Like LoadBehavior1K it reports every data error at once and
// returns the partial Base along with them.
func LoadYAML(name string, data []byte) (*Base, error) {
	file := filepath.Base(name)
	bd := newBuilder(512)
	src := source{file: file, yaml: true}
	root, ok := parseYAML(file, data, &bd.problems)
	var w *world
	if ok {
		w = loadYAMLDoc(root, src, bd)
	}
	b := bd.finish(computePropagation, Origin{Format: "yaml", Path: name})
	// Scene data is small in YAML: it is built during the load and
	// handed over as already loaded.
	b.worldData = w
	return b, b.loadErrs.Err()
}

var yamlLineRE = regexp.MustCompile(`line (\d+)`)

// parseYAML decodes the document into a gval tree, with lines.
func parseYAML(file string, data []byte, p *problems) (gval, bool) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		loc := Location{File: file}
		if m := yamlLineRE.FindStringSubmatch(err.Error()); m != nil {
			loc.Line, _ = strconv.Atoi(m[1])
		}
		p.errorf(loc, "syntax", "invalid YAML: %s", strings.TrimPrefix(err.Error(), "yaml: "))
		return gval{}, false
	}
	if err := yamlguard.Check(file, &doc, yamlguard.DefaultLimit); err != nil {
		p.errorf(Location{File: file}, "syntax", "%v", err)
		return gval{}, false
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		return gval{kind: gObject, where: 1}, true // empty: reported as having no synsets
	}
	c := yamlConverter{file: file, p: p, budget: yamlAliasBudget}
	g := c.convert(doc.Content[0], 0)
	return g, !c.failed
}

// yamlConverter turns yaml.Nodes into gvals. Aliases are followed, within
// a budget of nodes so that alias bombs fail instead of exhausting memory.
type yamlConverter struct {
	file       string
	p          *problems
	budget     int // nodes left to expand through aliases
	aliasDepth int // > 0 while converting the target of an alias
	anchored   int // > 0 while converting inside an anchored node
	failed     bool
}

// yamlAliasBudget bounds the nodes aliases may expand to; a variable so
// that tests can lower it.
var yamlAliasBudget = 1_000_000

// maxYAMLFile bounds a YAML knowledge base: the YAML library holds about
// 25 times the text in memory. The BEHAVIOR-1K directory format has no
// such cost and takes larger knowledge bases.
const maxYAMLFile = 64 << 20

func (c *yamlConverter) fail(n *yaml.Node, msg string) gval {
	if !c.failed {
		c.p.errorf(Location{File: c.file, Line: n.Line}, "syntax", "%s", msg)
	}
	c.failed = true
	return gval{}
}

func (c *yamlConverter) convert(n *yaml.Node, depth int) gval {
	if c.aliasDepth > 0 {
		// Only nodes reached through an alias count: a large document
		// costs memory in proportion to its size, which the file limit
		// bounds, but an alias can repeat a subtree without limit.
		c.budget--
		if c.budget < 0 {
			return c.fail(n, fmt.Sprintf("aliases expand to more than %d nodes (an alias bomb?)", yamlAliasBudget))
		}
	}
	if depth > maxJSONDepth {
		return c.fail(n, "nesting too deep")
	}
	if n.Anchor != "" {
		c.anchored++
		defer func() { c.anchored-- }()
	}
	// Outside anchored subtrees (which an alias may convert again), each
	// child is dropped from the node tree once converted, so that the
	// collector can free the YAML nodes while the values are built: a large
	// document then never holds both trees whole.
	release := c.anchored == 0 && c.aliasDepth == 0
	g := gval{where: int32(n.Line)}
	switch n.Kind {
	case yaml.AliasNode:
		if n.Alias == nil {
			return c.fail(n, "unresolved alias")
		}
		c.aliasDepth++
		a := c.convert(n.Alias, depth+1)
		c.aliasDepth--
		a.where = int32(n.Line)
		return a
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return g
		}
		root := c.convert(n.Content[0], depth+1)
		if release {
			n.Content[0] = nil
		}
		return root
	case yaml.SequenceNode:
		g.kind = gList
		g.list = make([]gval, 0, len(n.Content))
		for i, e := range n.Content {
			g.list = append(g.list, c.convert(e, depth+1))
			if release {
				n.Content[i] = nil
			}
		}
	case yaml.MappingNode:
		g.kind = gObject
		g.keys = make([]string, 0, len(n.Content)/2)
		g.vals = make([]gval, 0, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if k.Kind == yaml.AliasNode && k.Alias != nil {
				k = k.Alias
			}
			if k.Kind != yaml.ScalarNode {
				return c.fail(k, "mapping keys must be plain names")
			}
			if k.Value == "<<" { // merge keys: inline the merged mapping
				m := c.convert(v, depth+1)
				if m.kind == gObject {
					g.keys = append(g.keys, m.keys...)
					g.vals = append(g.vals, m.vals...)
				}
				continue
			}
			g.keys = append(g.keys, k.Value)
			g.vals = append(g.vals, c.convert(v, depth+1))
			if release {
				n.Content[i], n.Content[i+1] = nil, nil
			}
		}
	case yaml.ScalarNode:
		switch n.ShortTag() {
		case "!!null":
			g.kind = gNull
		case "!!bool":
			var v bool
			if err := n.Decode(&v); err != nil {
				return c.fail(n, "invalid boolean "+strconv.Quote(n.Value))
			}
			g.kind = gBool
			if v {
				g.num = 1
			}
		case "!!int", "!!float":
			var v float64
			if err := n.Decode(&v); err != nil {
				return c.fail(n, "invalid number "+strconv.Quote(n.Value))
			}
			if math.IsNaN(v) || math.IsInf(v, 0) {
				// .nan would make every comparison false (never cooked)
				// and -.inf every one true (always cooked): refuse it.
				c.p.errorf(Location{File: c.file, Line: n.Line}, "non-finite", "number %s is not finite; every number in a knowledge base must be", strconv.Quote(n.Value))
				g.kind = gNull
				break
			}
			g.kind, g.num = gNumber, v
		default:
			g.kind, g.str = gString, n.Value
		}
	default:
		return c.fail(n, "unsupported YAML node")
	}
	return g
}

// The top-level sections of the YAML format.
var yamlSections = map[string]bool{
	"format": true, "description": true, "room_types": true, "synsets": true,
	"models": true, "scenes": true, "transition_rules": true,
}

// The fields of a synset entry.
var yamlSynsetFields = map[string]bool{
	"parents": true, "custom": true, "type": true, "properties": true,
	"categories": true, "systems": true, "gloss": true,
}

func loadYAMLDoc(root gval, src source, bd *builder) *world {
	w := newWorld()
	if root.kind == gNull {
		return w
	}
	if root.kind != gObject {
		bd.errorf(src.locate(root), "yaml-type", "the knowledge base must be a mapping of sections (synsets, room_types, ...)")
		return w
	}
	for i, k := range root.keys {
		if !yamlSections[k] {
			msg := fmt.Sprintf("unknown section %q", k)
			if s := Suggest(k, slices.Sorted(maps.Keys(yamlSections)), 1); len(s) > 0 {
				msg += fmt.Sprintf(" (did you mean %s?)", s[0])
			}
			bd.notef(SeverityWarning, src.locate(root.vals[i], k), "unknown-field", "%s", msg)
		}
	}
	if rt, ok := root.field("room_types"); ok {
		bd.roomTypes = append(bd.roomTypes, yamlStrings(rt, src, bd, "room_types")...)
		sortUnique(&bd.roomTypes)
	}
	if ss, ok := root.field("synsets"); ok {
		yamlSynsets(ss, src, bd, w)
	} else {
		bd.errorf(src.locate(root), "yaml-type", "the knowledge base has no synsets section")
	}
	if ms, ok := root.field("models"); ok {
		yamlModels(ms, src, bd, w)
	}
	if sc, ok := root.field("scenes"); ok {
		yamlScenes(sc, src, bd, w)
	}
	if tr, ok := root.field("transition_rules"); ok {
		yamlRules(tr, src, bd)
	}
	return w
}

func sortUnique(s *[]string) {
	seen := map[string]bool{}
	out := (*s)[:0]
	for _, x := range *s {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	*s = out
	sort.Strings(*s)
}

// yamlStrings reads a list of strings (a single string is a list of one).
func yamlStrings(g gval, src source, bd *builder, keys ...string) []string {
	switch g.kind {
	case gNull:
		return nil
	case gString:
		return []string{g.str}
	case gList:
		out := make([]string, 0, len(g.list))
		for _, e := range g.list {
			if e.kind != gString {
				bd.errorf(src.locate(e, keys...), "yaml-type", "expected a name, found %s", e.text())
				continue
			}
			out = append(out, e.str)
		}
		return out
	}
	bd.errorf(src.locate(g, keys...), "yaml-type", "expected a list of names, found %s", g.text())
	return nil
}

func yamlSynsets(ss gval, src source, bd *builder, w *world) {
	if ss.kind != gObject {
		bd.errorf(src.locate(ss, "synsets"), "yaml-type", "synsets must map names to entries")
		return
	}
	// Pass 1: every name, so that parents and parameters may refer
	// forward.
	ids := make([]SynsetID, len(ss.keys))
	for i, name := range ss.keys {
		loc := src.locate(ss.vals[i], "synsets", name)
		if _, dup := bd.lookup(name); dup {
			bd.errorf(loc, "duplicate-synset", "synset %s is defined twice", name)
			ids[i] = NoSynset
			continue
		}
		if strings.TrimSpace(name) == "" {
			bd.errorf(loc, "bad-name", "empty synset name")
			ids[i] = NoSynset
			continue
		}
		ids[i] = bd.synset(name, loc)
		bd.custom[ids[i]] = strings.Contains(name, "__")
	}
	dec := paramDecoder{src: src, lookup: bd.lookup, p: &bd.problems}
	for i, name := range ss.keys {
		id, e := ids[i], ss.vals[i]
		if id == NoSynset || e.kind == gNull {
			continue
		}
		if e.kind != gObject {
			bd.errorf(src.locate(e, "synsets", name), "yaml-type", "the entry of %s must be a mapping", name)
			continue
		}
		for j, field := range e.keys {
			v := e.vals[j]
			keys := []string{"synsets", name, field}
			switch field {
			case "parents":
				for _, pname := range yamlStrings(v, src, bd, keys...) {
					pid, ok := bd.lookup(pname)
					if !ok {
						msg := fmt.Sprintf("parent %s of %s is not a defined synset", pname, name)
						if s := Suggest(pname, bd.names, 1); len(s) > 0 {
							msg += fmt.Sprintf(" (did you mean %s?)", s[0])
						}
						bd.errorf(src.locate(v, keys...), "unknown-parent", "%s", msg)
						continue
					}
					if pid == id {
						bd.errorf(src.locate(v, keys...), "cycle", "%s is its own parent", name)
						continue
					}
					bd.addParent(id, pid)
				}
			case "custom":
				if v.kind != gBool {
					bd.errorf(src.locate(v, keys...), "yaml-type", "custom must be true or false, found %s", v.text())
					continue
				}
				bd.custom[id] = v.boolean()
			case "type":
				if v.kind != gString {
					bd.errorf(src.locate(v, keys...), "yaml-type", "type must be a name, found %s", v.text())
					continue
				}
				if _, ok := objectTypeClasses(v.str); !ok {
					bd.errorf(src.locate(v, keys...), "unknown-type", "unknown object type %q (want one of %s)",
						v.str, strings.Join(ObjectTypeNames(), ", "))
					continue
				}
				bd.setProp(id, builtinPropertyByName[v.str])
			case "properties":
				yamlProperties(id, name, v, src, bd, &dec)
			case "categories":
				for _, c := range yamlStrings(v, src, bd, keys...) {
					if prev, ok := w.catSynset[c]; ok && prev != id {
						bd.errorf(src.locate(v, keys...), "duplicate-category", "category %s is mapped to both %s and %s", c, bd.names[prev], name)
						continue
					}
					w.mapCategory(c, id)
				}
			case "systems":
				for _, c := range yamlStrings(v, src, bd, keys...) {
					if _, ok := w.catSynset[c]; !ok {
						w.catSynset[c] = id
						w.synSystems[id] = append(w.synSystems[id], c)
					}
				}
			case "gloss":
			default:
				msg := fmt.Sprintf("unknown field %q of synset %s", field, name)
				if s := Suggest(field, slices.Sorted(maps.Keys(yamlSynsetFields)), 1); len(s) > 0 {
					msg += fmt.Sprintf(" (did you mean %s?)", s[0])
				}
				bd.notef(SeverityWarning, src.locate(v, keys...), "unknown-field", "%s", msg)
			}
		}
	}
}

// yamlProperties reads `properties:` as a list (names, or one-key
// mappings name: {params}) or as a mapping name: {params} | null.
func yamlProperties(id SynsetID, name string, v gval, src source, bd *builder, dec *paramDecoder) {
	set := func(pname string, params gval) {
		if pname == "" {
			bd.errorf(src.locate(params, "synsets", name, "properties"), "yaml-type", "empty property name")
			return
		}
		p := bd.propTable.intern([]byte(pname))
		if p >= numBuiltinProperties {
			bd.notef(SeverityInfo, src.locate(params, "synsets", name, "properties", pname), "new-property",
				"property %q is not built in; it is registered from the data", pname)
		}
		bd.setProp(id, p)
		if ps := dec.decode(name, pname, params); len(ps) > 0 {
			bd.setParams(id, p, ps)
		}
	}
	switch v.kind {
	case gNull:
	case gList:
		for _, e := range v.list {
			switch {
			case e.kind == gString:
				set(e.str, gval{kind: gNull, where: e.where})
			case e.kind == gObject && len(e.keys) == 1:
				set(e.keys[0], e.vals[0])
			default:
				bd.errorf(src.locate(e, "synsets", name, "properties"), "yaml-type",
					"a property is a name or a one-key mapping name: {parameters}, found %s", e.text())
			}
		}
	case gObject:
		for i, pname := range v.keys {
			set(pname, v.vals[i])
		}
	default:
		bd.errorf(src.locate(v, "synsets", name, "properties"), "yaml-type", "properties must be a list or a mapping, found %s", v.text())
	}
}

func yamlModels(ms gval, src source, bd *builder, w *world) {
	if ms.kind != gObject {
		bd.errorf(src.locate(ms, "models"), "yaml-type", "models must map model names to entries")
		return
	}
	for i, name := range ms.keys {
		e := ms.vals[i]
		cat, id := splitModelName(name)
		m := Model{Name: name, Category: cat, ID: id}
		if id == "" {
			bd.errorf(src.locate(e, "models", name), "bad-name", "a model name is <category>-<id>, found %q", name)
			continue
		}
		if e.kind != gObject && e.kind != gNull {
			bd.errorf(src.locate(e, "models", name), "yaml-type", "the entry of model %s must be a mapping", name)
			continue
		}
		for j, field := range e.keys {
			v := e.vals[j]
			keys := []string{"models", name, field}
			switch field {
			case "size":
				if v.kind != gList || len(v.list) != 3 || v.list[0].kind != gNumber || v.list[1].kind != gNumber || v.list[2].kind != gNumber {
					bd.errorf(src.locate(v, keys...), "yaml-type", "size must be [x, y, z] in metres")
					continue
				}
				m.Size, m.HasSize = [3]float64{v.list[0].num, v.list[1].num, v.list[2].num}, true
			case "meta_links":
				m.MetaLinks = yamlStrings(v, src, bd, keys...)
			case "attachments":
				if v.kind != gObject {
					bd.errorf(src.locate(v, keys...), "yaml-type", "attachments must be {male: [...], female: [...]}")
					continue
				}
				for k, side := range v.keys {
					switch side {
					case "male", "M":
						m.MaleAttachments = yamlStrings(v.vals[k], src, bd, append(keys, side)...)
					case "female", "F":
						m.FemaleAttachments = yamlStrings(v.vals[k], src, bd, append(keys, side)...)
					default:
						bd.errorf(src.locate(v.vals[k], keys...), "yaml-type", "attachment side must be male or female, found %q", side)
					}
				}
			case "provider":
				if v.kind == gString {
					m.Provider = v.str
				}
			default:
				bd.notef(SeverityWarning, src.locate(v, keys...), "unknown-field", "unknown field %q of model %s", field, name)
			}
		}
		w.addModel(m)
	}
}

func yamlScenes(sc gval, src source, bd *builder, w *world) {
	if sc.kind != gObject {
		bd.errorf(src.locate(sc, "scenes"), "yaml-type", "scenes must map scene names to rooms")
		return
	}
	for i, name := range sc.keys {
		rooms := sc.vals[i]
		if rooms.kind != gObject {
			bd.errorf(src.locate(rooms, "scenes", name), "yaml-type", "scene %s must map room instances to models", name)
			continue
		}
		s := Scene{Name: name}
		for j, room := range rooms.keys {
			objs := rooms.vals[j]
			r := Room{Name: room, Type: RoomType(room)}
			if objs.kind != gObject && objs.kind != gNull {
				bd.errorf(src.locate(objs, "scenes", name, room), "yaml-type", "room %s must map models to counts", room)
				continue
			}
			for k, m := range objs.keys {
				c := objs.vals[k]
				if c.kind != gNumber || c.num < 0 || c.num != float64(int(c.num)) {
					bd.errorf(src.locate(c, "scenes", name, room, m), "yaml-type", "count of %s must be a non-negative integer, found %s", m, c.text())
					continue
				}
				cat, _ := splitModelName(m)
				if _, ok := w.modelIdx[m]; !ok {
					bd.errorf(src.locate(c, "scenes", name, room, m), "unknown-model", "room %s places model %s, which models does not define", room, m)
				}
				r.Objects = append(r.Objects, ModelCount{Model: m, Category: cat, Count: int(c.num)})
			}
			s.Rooms = append(s.Rooms, r)
		}
		w.scenes = append(w.scenes, s)
	}
}

func yamlRules(tr gval, src source, bd *builder) {
	if tr.kind != gObject {
		bd.errorf(src.locate(tr, "transition_rules"), "yaml-type", "transition_rules must map rule kinds (heat_cook, washer, ...) to rules")
		return
	}
	dec := ruleDecoder{src: src, lookup: bd.lookup, p: &bd.problems}
	stems := append([]string(nil), tr.keys...)
	for i, stem := range tr.keys {
		if ruleKindByFile[stem] == 0 {
			msg := fmt.Sprintf("unknown rule kind %q", stem)
			if derivedRuleFiles[stem] {
				msg += "; slicing, dicing and melting rules are derived from the sliceable, diceable and meltable parameters"
			} else if s := Suggest(stem, slices.Sorted(maps.Keys(ruleKindByFile)), 1); len(s) > 0 {
				msg += fmt.Sprintf(" (did you mean %s?)", s[0])
			}
			bd.errorf(src.locate(tr.vals[i], "transition_rules", stem), "unknown-rule-kind", "%s", msg)
		}
	}
	ruleFileOrder(stems)
	for _, stem := range stems {
		if ruleKindByFile[stem] == 0 {
			continue
		}
		g, _ := tr.field(stem)
		bd.rules = append(bd.rules, dec.decodeRuleFile(stem, g, "transition_rules", stem)...)
	}
}
