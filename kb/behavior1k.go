package kb

import (
	"bytes"
	"crypto/sha256"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/openbddl/bddl/internal/b1klayout"
)

// The BEHAVIOR-1K knowledge-base files this package reads.
const (
	fileHierarchy  = "output_hierarchy.json"
	fileParams     = "propagated_annots_params.json"
	fileCanonical  = "propagated_annots_canonical.json"
	fileSynsets    = "synsets.csv"
	fileRoomTypes  = "allowed_room_types.csv"
	fileCategories = "category_mapping.csv"
	fileScenes     = "combined_room_object_list.json"
	fileInventory  = "object_inventory.json"
	dirRules       = "transition_map/tm_jsons"
)

// LoadBehavior1K loads a BEHAVIOR-1K knowledge base: its data folder
// (the bddl package's generated_data/), the bddl package folder holding
// it, or a checkout's root holding the package (internal/b1klayout). The
// package's knowledge_base/ is Python code: named, it is refused with the
// folder to give instead, or its generated_data/ beside it is read. It reads what
// validation and evaluation need (the hierarchy, propagated properties
// with parameters, synsets.csv, room types, transition rules) at once, and
// scenes, categories and object models on first use.
//
// Data errors are collected, not just the first: the error is a DataErrors
// naming every file and line or key. The Base is returned even then, with
// whatever could be loaded, so a checker can report more.
func LoadBehavior1K(dir string) (*Base, error) {
	dir, err := behavior1KDir(dir)
	if err != nil {
		return nil, err
	}
	cdir := cacheDir()
	if cdir == "" {
		b, _ := loadB1KSources(dir, nil)
		return b, b.loadErrs.Err()
	}
	set := b1kSources(dir)
	hasher := newHasher(dir, cdir)
	key, keyed := cacheKey(set, hasher.hash)
	hasher.memo.save()
	if keyed {
		if b, hier := loadCached(cdir, key); b != nil {
			b.cacheKey = key
			b.attachB1K(dir, hier)
			return b, b.loadErrs.Err()
		}
	}
	hashes := map[string]fileSum{}
	b, hier := loadB1KSources(dir, hashes)
	// Store only what was parsed from exactly the keyed bytes: if a file
	// or the rule directory changed during the load, the keys differ.
	parsed, ok := cacheKey(set, func(name string) ([]byte, bool, bool) {
		h, seen := hashes[name]
		return h.sum, h.present, seen
	})
	if keyed && ok && parsed == key && b1kSources(dir).listing == set.listing {
		storeEntry(cdir, key, encodeBase(b, hier))
		b.cacheKey = key
	}
	return b, b.loadErrs.Err()
}

// fileSum is the hash of a file as the importer read it.
type fileSum struct {
	sum     []byte
	present bool
}

// loadB1KSources parses the knowledge base from its files, recording in
// hashes (when not nil) the hash of every file it reads.
func loadB1KSources(dir string, hashes map[string]fileSum) (*Base, []hierCategory) {
	imp := &b1kImporter{dir: dir, bd: newBuilder(4096), hashes: hashes}
	imp.readHierarchy()
	imp.readSynsetsCSV()
	imp.readParams()
	imp.readRoomTypes()
	imp.readRules()
	imp.compareCSV()

	b := imp.bd.finish(verifyPropagation, Origin{Format: "behavior1k"})
	b.attachB1K(dir, imp.hierCats)
	return b, imp.hierCats
}

// attachB1K points a loaded or decoded Base at its directory: the origin,
// the lazily loaded world tiers and the consistency checks read from it.
func (b *Base) attachB1K(dir string, cats []hierCategory) {
	b.origin = Origin{Format: "behavior1k", Path: dir}
	b.worldLoad = func(t worldTier, w *world, p *problems) { loadB1KTier(dir, b, cats, t, w, p) }
	b.extraChecks = func(b *Base) []Finding { return b1kChecks(dir, b) }
}

// behavior1KDir finds the data folder of what dir is: the data folder
// itself, a bddl package or checkout holding one, or the package's Python
// knowledge_base/ with generated_data/ beside it.
func behavior1KDir(dir string) (string, error) {
	l := b1klayout.Recognise(dir)
	if l.Data != "" {
		return l.Data, nil
	}
	const give = "give the knowledge base's data folder (generated_data/), the bddl package folder holding it " +
		"(BEHAVIOR-1K/bddl3/bddl or site-packages/bddl), or the BEHAVIOR-1K checkout's root"
	msg := "not a BEHAVIOR-1K knowledge base (no " + fileHierarchy + " in it, nor a generated_data/ folder): " + give
	if l.Kind == b1klayout.PythonCode {
		msg = "the bddl package's Python code (an ORM over the data), not its data, and no generated_data/ beside it: " + give
	}
	if _, err := os.Stat(dir); err != nil {
		return "", fmt.Errorf("knowledge base %s: %w", dir, err)
	}
	return "", &NotKBError{Path: dir, Reason: msg}
}

// NotKBError is a folder named as a knowledge base that is none, with
// what to give instead.
type NotKBError struct{ Path, Reason string }

func (e *NotKBError) Error() string { return "knowledge base " + e.Path + ": " + e.Reason }

type b1kImporter struct {
	dir string
	bd  *builder

	// csvProps holds, per synset listed in synsets.csv, the properties its
	// columns and object type give, for comparison with the params file.
	csvProps   map[SynsetID][]Property
	csvLine    map[SynsetID]int
	csvColumns []Property
	stack      []SynsetID // children collected while scanning the hierarchy

	// hierCats are the categories and particle systems the hierarchy
	// attaches to synsets, in post-order as the categories tier applies
	// them; collected here so that tier need not scan the hierarchy again.
	hierCats []hierCategory

	// hashes, when not nil, receives the hash of every file read, for the
	// cache key.
	hashes map[string]fileSum
}

// hierCategory is one category (or particle system) of a hierarchy node.
type hierCategory struct {
	id     SynsetID
	name   string
	system bool
}

func (imp *b1kImporter) read(name string, required bool) []byte {
	data, err := readRegular(filepath.Join(imp.dir, name), maxDataFile)
	if imp.hashes != nil {
		if err == nil {
			sum := sha256.Sum256(data)
			imp.hashes[name] = fileSum{sum: sum[:], present: true}
		} else if errors.Is(err, fs.ErrNotExist) {
			imp.hashes[name] = fileSum{}
		}
	}
	if err != nil {
		if required || !errors.Is(err, fs.ErrNotExist) {
			imp.bd.errorf(Location{File: name}, "missing-file", "cannot read: %v", err)
		}
		return nil
	}
	return stripBOM(data)
}

// stripBOM drops a UTF-8 byte-order mark, which spreadsheet exports add.
func stripBOM(data []byte) []byte {
	return bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
}

// readHierarchy reads output_hierarchy.json: nested {name, children}
// nodes rooted at entity.n.01. A synset with several hypernyms appears
// under each; edges are recorded once.
func (imp *b1kImporter) readHierarchy() {
	data := imp.read(fileHierarchy, true)
	if data == nil {
		return
	}
	s := &jsonScanner{data: data}
	if s.peek() == '[' { // tolerate a list of roots
		s.pos++
		first := true
		for s.more(&first, ']') {
			imp.hierarchyNode(s, 0)
		}
	} else {
		imp.hierarchyNode(s, 0)
	}
	s.end()
	s.report(&imp.bd.problems, fileHierarchy)
}

func (imp *b1kImporter) hierarchyNode(s *jsonScanner, depth int) SynsetID {
	if depth > maxJSONDepth {
		s.fail("nesting too deep")
		return NoSynset
	}
	at := s.pos
	if !s.open('{') {
		return NoSynset
	}
	id := NoSynset
	start := len(imp.stack)
	var cats []hierCategory
	first := true
	for s.more(&first, '}') {
		switch k := s.key(); string(k) {
		case "categories", "substances":
			system := string(k) == "substances"
			if !s.open('[') {
				break
			}
			lf := true
			for s.more(&lf, ']') {
				cats = append(cats, hierCategory{name: string(s.str()), system: system})
			}
		case "name":
			name := s.str()
			if len(name) == 0 {
				if !s.failed {
					imp.bd.errorf(Location{File: fileHierarchy, Line: lineAt(s.data, at)}, "bad-name", "hierarchy node with an empty name")
				}
				continue
			}
			id = imp.bd.synset(string(name), Location{File: fileHierarchy, Line: 0, Key: string(name)})
		case "children":
			if !s.open('[') {
				break
			}
			cfirst := true
			for s.more(&cfirst, ']') {
				if c := imp.hierarchyNode(s, depth+1); c != NoSynset {
					imp.stack = append(imp.stack, c)
				}
			}
		default:
			s.skip(depth + 1)
		}
	}
	if id == NoSynset && !s.failed {
		imp.bd.errorf(Location{File: fileHierarchy, Line: lineAt(s.data, at)}, "bad-name", "hierarchy node without a name")
	}
	if id != NoSynset {
		for _, c := range imp.stack[start:] {
			imp.bd.addParent(c, id)
		}
		for _, c := range cats {
			c.id = id
			imp.hierCats = append(imp.hierCats, c)
		}
	}
	imp.stack = imp.stack[:start]
	return id
}

// csvMetaColumns are the synsets.csv columns that are not properties.
var csvMetaColumns = map[string]bool{"synset": true, "hypernyms": true, "prune": true, "is_custom": true, "objectType": true, "": true}

// readSynsetsCSV reads synsets.csv: custom and pruned flags, hypernyms
// (checked against the hierarchy), and the annotated property columns
// (compared with the params file by compareCSV).
func (imp *b1kImporter) readSynsetsCSV() {
	data := imp.read(fileSynsets, false)
	if data == nil {
		imp.bd.notef(SeverityWarning, Location{File: fileSynsets}, "missing-file",
			"no synsets.csv: every synset is taken as a WordNet synset, not custom")
		return
	}
	bd := imp.bd
	r := csv.NewReader(bytes.NewReader(data))
	r.FieldsPerRecord = -1
	r.ReuseRecord = true
	header, err := r.Read()
	if err != nil {
		bd.errorf(Location{File: fileSynsets, Line: 1}, "syntax", "invalid CSV header: %v", err)
		return
	}
	header = append([]string(nil), header...) // ReuseRecord recycles the slice
	col := map[string]int{}
	type propCol struct {
		idx  int
		prop Property
	}
	var props []propCol
	for i, h := range header {
		h = strings.TrimSpace(h)
		if _, dup := col[h]; !dup {
			col[h] = i
		}
		if !csvMetaColumns[h] {
			p := bd.propTable.intern([]byte(h))
			props = append(props, propCol{i, p})
			imp.csvColumns = append(imp.csvColumns, p)
		}
	}
	nameCol, ok := col["synset"]
	if !ok {
		bd.errorf(Location{File: fileSynsets, Line: 1}, "csv-header", "synsets.csv has no synset column")
		return
	}
	get := func(rec []string, name string) string {
		if i, ok := col[name]; ok && i < len(rec) {
			return strings.TrimSpace(rec[i])
		}
		return ""
	}
	imp.csvProps = map[SynsetID][]Property{}
	imp.csvLine = map[SynsetID]int{}
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			line, _ := r.FieldPos(0)
			bd.errorf(Location{File: fileSynsets, Line: line}, "syntax", "invalid CSV: %v", err)
			return
		}
		line, _ := r.FieldPos(0)
		loc := Location{File: fileSynsets, Line: line}
		if nameCol >= len(rec) || strings.TrimSpace(rec[nameCol]) == "" {
			bd.errorf(loc, "bad-name", "row without a synset name")
			continue
		}
		name := strings.TrimSpace(rec[nameCol])
		loc.Key = name
		flag := func(column string) bool {
			switch v := get(rec, column); v {
			case "", "0", "0.0", "FALSE", "False", "false":
				return false
			case "1", "1.0", "TRUE", "True", "true":
				return true
			default:
				bd.errorf(loc, "csv-type", "column %s must be 0 or 1, found %q", column, v)
				return false
			}
		}
		if flag("prune") {
			bd.pruned[strings.ToLower(name)] = struct{}{}
			continue
		}
		id, known := bd.lookup(name)
		if !known {
			id = bd.synset(name, loc)
			bd.notef(SeverityWarning, loc, "not-in-hierarchy",
				"synset %s is in synsets.csv but not in %s", name, fileHierarchy)
		}
		bd.custom[id] = flag("is_custom")
		for _, h := range strings.Split(get(rec, "hypernyms"), ",") {
			h = strings.TrimSpace(h)
			if h == "" {
				continue
			}
			pid, ok := bd.lookup(h)
			if !ok {
				bd.errorf(loc, "unknown-parent", "hypernym %q of %s is not a known synset", h, name)
				continue
			}
			has := false
			for _, p := range bd.parents[id] {
				has = has || p == pid
			}
			if !has {
				if known {
					bd.notef(SeverityWarning, loc, "hierarchy-mismatch",
						"synsets.csv gives %s the hypernym %s, which %s does not", name, h, fileHierarchy)
				}
				bd.addParent(id, pid)
			}
		}
		var ps []Property
		for _, pc := range props {
			if pc.idx < len(rec) && flag(header[pc.idx]) {
				ps = append(ps, pc.prop)
			}
		}
		if ot := get(rec, "objectType"); ot != "" {
			classes, ok := objectTypeClasses(ot)
			if !ok {
				bd.errorf(loc, "csv-type", "unknown objectType %q (want one of %s)", ot, strings.Join(ObjectTypeNames(), ", "))
			}
			ps = append(ps, classes...)
		}
		imp.csvProps[id] = ps
		imp.csvLine[id] = line
	}
}

// readParams reads propagated_annots_params.json: synset → property →
// parameters. Every property named is set; parameters are type-checked
// against the schema.
func (imp *b1kImporter) readParams() {
	data := imp.read(fileParams, false)
	file := fileParams
	if data == nil {
		// Older data has only the canonical file: properties without
		// parameters.
		if data = imp.read(fileCanonical, false); data == nil {
			imp.bd.errorf(Location{File: fileParams}, "missing-file", "neither %s nor %s is present", fileParams, fileCanonical)
			return
		}
		file = fileCanonical
	}
	bd := imp.bd
	src := source{file: file, data: data}
	dec := paramDecoder{src: src, lookup: bd.lookup, p: &bd.problems}
	s := &jsonScanner{data: data}
	if !s.open('{') {
		s.report(&bd.problems, file)
		return
	}
	newProps := map[Property]bool{}
	first := true
	for s.more(&first, '}') {
		at := s.pos
		key := s.key()
		id, ok := bd.byName[string(key)]
		if !ok {
			if id, ok = bd.lookup(string(key)); !ok {
				if !s.failed {
					bd.errorf(Location{File: file, Line: lineAt(data, at), Key: string(key)}, "unknown-synset",
						"properties given for %q, which is not in %s", key, fileHierarchy)
				}
				s.skip(1)
				continue
			}
		}
		if !s.open('{') {
			break
		}
		pfirst := true
		for s.more(&pfirst, '}') {
			pat := s.pos
			pk := s.key()
			p := bd.propTable.intern(pk)
			if p >= numBuiltinProperties && !newProps[p] {
				newProps[p] = true
				bd.notef(SeverityInfo, Location{File: file, Line: lineAt(data, pat), Key: keyPath(bd.names[id], string(pk))},
					"new-property", "property %q is not built in; it is registered from the data", pk)
			}
			bd.setProp(id, p)
			switch s.peek() {
			case '{':
				// Most properties have no parameters: skip "{}" without
				// building a value.
				save := s.pos
				s.pos++
				if s.peek() == '}' {
					s.pos++
					continue
				}
				s.pos = save
				g := s.value(2)
				if !s.failed {
					if params := dec.decode(bd.names[id], bd.propTable.names[p], g); len(params) > 0 {
						bd.setParams(id, p, params)
					}
				}
			case 'n':
				s.skip(2)
			default:
				g := s.value(2)
				bd.errorf(src.locate(g, bd.names[id], string(pk)), "param-type",
					"parameters of %s must be an object, found %s", pk, g.text())
			}
		}
	}
	s.end()
	s.report(&bd.problems, file)
}

// readRoomTypes reads allowed_room_types.csv: a header and one room type
// per line.
func (imp *b1kImporter) readRoomTypes() {
	data := imp.read(fileRoomTypes, false)
	if data == nil {
		imp.bd.notef(SeverityWarning, Location{File: fileRoomTypes}, "missing-file",
			"no allowed_room_types.csv: every inroom literal will be reported")
		return
	}
	r := csv.NewReader(bytes.NewReader(data))
	r.FieldsPerRecord = -1
	seen := map[string]bool{}
	for first := true; ; first = false {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			line, _ := r.FieldPos(0)
			imp.bd.errorf(Location{File: fileRoomTypes, Line: line}, "syntax", "invalid CSV: %v", err)
			return
		}
		if first || len(rec) == 0 {
			continue // header
		}
		room := strings.TrimSpace(rec[0])
		if room != "" && !seen[room] {
			seen[room] = true
			imp.bd.roomTypes = append(imp.bd.roomTypes, room)
		}
	}
	sort.Strings(imp.bd.roomTypes)
}

// readRules reads the transition-map files OmniGibson uses.
func (imp *b1kImporter) readRules() {
	dir := filepath.Join(imp.dir, dirRules)
	entries, err := os.ReadDir(dir)
	if err != nil {
		imp.bd.notef(SeverityWarning, Location{File: dirRules}, "missing-file", "no transition rules: %v", err)
		return
	}
	var stems []string
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".json") {
			continue
		}
		stem := strings.TrimSuffix(name, ".json")
		switch {
		case ruleKindByFile[stem] != 0:
			stems = append(stems, stem)
		case derivedRuleFiles[stem]:
			// Derived from parameters; compared by Check.
		default:
			imp.bd.notef(SeverityInfo, Location{File: name}, "ignored-file",
				"%s is not a rule file the reference simulator reads; its synsets are checked but its rules not loaded", name)
		}
	}
	ruleFileOrder(stems)
	for _, stem := range stems {
		name := stem + ".json"
		data := imp.read(filepath.Join(dirRules, name), true)
		if data == nil {
			continue
		}
		s := &jsonScanner{data: data}
		g := s.value(0)
		s.end()
		s.report(&imp.bd.problems, name)
		if s.failed {
			continue
		}
		dec := ruleDecoder{src: source{file: name, data: data}, lookup: imp.bd.lookup, p: &imp.bd.problems}
		imp.bd.rules = append(imp.bd.rules, dec.decodeRuleFile(stem, g)...)
	}
}

// derivedRuleFiles are the rule files for rules the engine derives from
// parameters, as the reference simulator does.
var derivedRuleFiles = map[string]bool{"slicing": true, "dicing": true, "melting": true}

// compareCSV reports leaf synsets whose synsets.csv columns disagree with
// the params file. Leaves only: non-leaf properties are propagated.
func (imp *b1kImporter) compareCSV() {
	bd := imp.bd
	isParent := make([]bool, len(bd.names))
	for _, ps := range bd.parents {
		for _, p := range ps {
			isParent[p] = true
		}
	}
	// In id order, so that the findings come out the same every load.
	ids := make([]SynsetID, 0, len(imp.csvProps))
	for id := range imp.csvProps {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		ps := imp.csvProps[id]
		if isParent[id] {
			continue
		}
		var missing, extra []string
		inCSV := map[Property]bool{}
		for _, p := range ps {
			inCSV[p] = true
			if !bd.hasProp(id, p) {
				missing = append(missing, bd.propTable.names[p])
			}
		}
		for _, p := range imp.csvColumns {
			if !inCSV[p] && bd.hasProp(id, p) {
				extra = append(extra, bd.propTable.names[p])
			}
		}
		loc := Location{File: fileSynsets, Line: imp.csvLine[id], Key: bd.names[id]}
		if len(missing) > 0 {
			bd.notef(SeverityWarning, loc, "csv-mismatch",
				"synsets.csv gives %s %s, which %s does not", bd.names[id], strings.Join(missing, ", "), fileParams)
		}
		if len(extra) > 0 {
			bd.notef(SeverityWarning, loc, "csv-mismatch",
				"%s gives %s %s, which synsets.csv does not", fileParams, bd.names[id], strings.Join(extra, ", "))
		}
	}
}
