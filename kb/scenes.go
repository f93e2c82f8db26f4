package kb

import (
	"sort"
	"strings"
)

// Scene is one simulator scene: its room instances and the object models
// in each.
type Scene struct {
	Name  string `json:"name"`
	Rooms []Room `json:"rooms"`
}

// Room is one room instance of a scene, such as kitchen_0.
type Room struct {
	Name    string       `json:"name"` // the instance, e.g. "kitchen_0"
	Type    string       `json:"type"` // the room type, e.g. "kitchen"
	Objects []ModelCount `json:"objects"`
}

// ModelCount is how many objects of one model a room holds.
type ModelCount struct {
	Model    string `json:"model"`    // "<category>-<model id>"
	Category string `json:"category"` // the model's object category
	Count    int    `json:"count"`
}

// Model is one object model (asset) of the simulator.
type Model struct {
	Name     string `json:"name"`     // "<category>-<model id>"
	ID       string `json:"id"`       // the model id, e.g. "agveuv"
	Category string `json:"category"` // the object category, e.g. "apple"
	// Size is the bounding box in metres (x, y, z); HasSize is false when
	// the inventory gives none.
	Size    [3]float64 `json:"size"`
	HasSize bool       `json:"has_size"`
	// MetaLinks are the model's meta-link types: fillable, togglebutton,
	// heatsource, attachment, ... They tell the sampler which models are
	// containers, can be switched on, or heat things.
	MetaLinks []string `json:"meta_links,omitempty"`
	// Attachment link types, male (on the child) and female (on the
	// parent); a male and a female link of the same type can attach.
	MaleAttachments   []string `json:"male_attachments,omitempty"`
	FemaleAttachments []string `json:"female_attachments,omitempty"`
	Provider          string   `json:"provider,omitempty"`
}

// HasMetaLink reports whether the model has a meta link of this type.
func (m Model) HasMetaLink(kind string) bool {
	for _, l := range m.MetaLinks {
		if l == kind {
			return true
		}
	}
	return false
}

// RoomUse says that a room instance of a scene holds objects of a synset.
type RoomUse struct {
	Scene string `json:"scene"`
	Room  string `json:"room"`
	Type  string `json:"type"`
	Count int    `json:"count"`
}

// world is the scene and asset data, loaded lazily because validation and
// evaluation do not need it and it is most of the BEHAVIOR-1K bytes.
type world struct {
	scenes     []Scene
	sceneIdx   map[string]int
	catSynset  map[string]SynsetID
	synCats    map[SynsetID][]string // categories mapped directly to a synset
	synSystems map[SynsetID][]string // particle system names of a substance synset
	models     map[string][]Model    // by category
	modelIdx   map[string]Model      // by full name and by id

	hasAttachments bool // some model has attachment links

	// lazy, when not nil, holds the models of a cached model entry, which
	// fill models and modelIdx on demand (cachetiers.go).
	lazy *lazyModels
}

func newWorld() *world {
	return &world{
		sceneIdx:   map[string]int{},
		catSynset:  map[string]SynsetID{},
		synCats:    map[SynsetID][]string{},
		synSystems: map[SynsetID][]string{},
		models:     map[string][]Model{},
		modelIdx:   map[string]Model{},
	}
}

func (w *world) mapCategory(cat string, id SynsetID) {
	if _, ok := w.catSynset[cat]; ok {
		return
	}
	w.catSynset[cat] = id
	w.synCats[id] = append(w.synCats[id], cat)
}

func (w *world) addModel(m Model) {
	if len(m.MaleAttachments)+len(m.FemaleAttachments) > 0 {
		w.hasAttachments = true
	}
	w.models[m.Category] = append(w.models[m.Category], m)
	w.modelIdx[m.Name] = m
	if m.ID != "" {
		if _, taken := w.modelIdx[m.ID]; !taken {
			w.modelIdx[m.ID] = m
		}
	}
}

// finish sorts a tier for stable output.
func (w *world) finish(t worldTier) {
	switch t {
	case tierCategories:
		for _, cs := range w.synCats {
			sort.Strings(cs)
		}
		return
	case tierModels:
		for _, ms := range w.models {
			sort.Slice(ms, func(i, j int) bool { return ms[i].Name < ms[j].Name })
		}
		return
	}
	sort.Slice(w.scenes, func(i, j int) bool { return w.scenes[i].Name < w.scenes[j].Name })
	for i := range w.scenes {
		w.sceneIdx[w.scenes[i].Name] = i
		rooms := w.scenes[i].Rooms
		sort.Slice(rooms, func(a, b int) bool { return rooms[a].Name < rooms[b].Name })
		for _, r := range rooms {
			sort.Slice(r.Objects, func(a, b int) bool { return r.Objects[a].Model < r.Objects[b].Model })
		}
	}
}

// splitModelName splits "<category>-<model id>"; the category itself may
// contain no hyphen, the id none either.
func splitModelName(name string) (category, id string) {
	i := strings.LastIndexByte(name, '-')
	if i < 0 {
		return name, ""
	}
	return name[:i], name[i+1:]
}

// RoomType returns the room type of a room instance name: "kitchen" for
// "kitchen_0".
func RoomType(instance string) string {
	i := strings.LastIndexByte(instance, '_')
	if i < 0 || i == len(instance)-1 {
		return instance
	}
	for _, c := range instance[i+1:] {
		if c < '0' || c > '9' {
			return instance
		}
	}
	return instance[:i]
}

// The world loads in three tiers, each on first need, so that a command
// pays only for the data it uses: kb show of one synset reads categories,
// scenes and models; validation reads none of them unless it checks scene
// feasibility or attachments.
type worldTier uint8

const (
	tierCategories worldTier = iota // category and particle-system → synset
	tierScenes                      // scenes, rooms and the models in them
	tierModels                      // object models: sizes, meta links, attachments
	numWorldTiers
)

// tier loads one tier of the world if it is not loaded yet.
func (b *Base) tier(t worldTier) *world {
	b.worldOnce[t].Do(func() {
		b.worldInit.Do(b.initWorld)
		if b.worldLoad != nil {
			var p problems
			b.worldLoad(t, b.worldData, &p)
			b.worldMu.Lock()
			b.worldProb.errs = append(b.worldProb.errs, p.errs...)
			b.worldProb.findings = append(b.worldProb.findings, p.findings...)
			b.worldMu.Unlock()
		}
		b.worldData.finish(t)
	})
	return b.worldData
}

func (b *Base) initWorld() {
	if b.worldData == nil {
		b.worldData = newWorld()
	}
}

// world loads every tier.
func (b *Base) world() *world {
	for t := range numWorldTiers {
		b.tier(t)
	}
	b.worldData.allModels()
	return b.worldData
}

// WorldErr loads the scene and model data if needed and returns its data
// errors, or nil. The scene queries return what could be loaded.
func (b *Base) WorldErr() error {
	b.world()
	return b.worldProb.errs.Err()
}

// RoomTypes lists the room types the knowledge base allows, sorted.
func (b *Base) RoomTypes() []string { return b.roomTypes }

// IsRoomType reports whether name is an allowed room type.
func (b *Base) IsRoomType(name string) bool {
	_, ok := b.roomTypeSet[name]
	return ok
}

// Scenes lists the scenes sorted by name. The slice and the scenes are
// shared: do not modify them.
func (b *Base) Scenes() []Scene { return b.tier(tierScenes).scenes }

// Scene returns one scene by name.
func (b *Base) Scene(name string) (Scene, bool) {
	w := b.tier(tierScenes)
	i, ok := w.sceneIdx[name]
	if !ok {
		return Scene{}, false
	}
	return w.scenes[i], true
}

// SynsetOfCategory returns the synset an object category (or particle
// system) maps to.
func (b *Base) SynsetOfCategory(category string) (SynsetID, bool) {
	id, ok := b.tier(tierCategories).catSynset[category]
	return id, ok
}

// Categories returns the object categories mapped directly to id.
func (b *Base) Categories(id SynsetID) []string { return b.tier(tierCategories).synCats[id] }

// CategoriesOf returns the object categories of id's subtree (id and all
// its descendants), sorted: the kinds of simulator objects that can stand
// for an instance of id.
func (b *Base) CategoriesOf(id SynsetID) []string {
	return b.subtreeStrings(id, b.tier(tierCategories).synCats)
}

// SystemsOf returns the particle-system names of id's subtree, for
// substances.
func (b *Base) SystemsOf(id SynsetID) []string {
	return b.subtreeStrings(id, b.tier(tierCategories).synSystems)
}

func (b *Base) subtreeStrings(id SynsetID, m map[SynsetID][]string) []string {
	if !b.valid(id) {
		return nil
	}
	out := append([]string(nil), m[id]...)
	for _, d := range b.Descendants(id) {
		out = append(out, m[d]...)
	}
	sort.Strings(out)
	return dedupSorted(out)
}

func dedupSorted(s []string) []string {
	if len(s) < 2 {
		return s
	}
	out := s[:1]
	for _, x := range s[1:] {
		if x != out[len(out)-1] {
			out = append(out, x)
		}
	}
	return out
}

// Models returns the object models of a category, sorted by name.
func (b *Base) Models(category string) []Model { return b.tier(tierModels).category(category) }

// ModelsOf returns the models of every category in id's subtree.
func (b *Base) ModelsOf(id SynsetID) []Model {
	var out []Model
	for _, c := range b.CategoriesOf(id) {
		out = append(out, b.Models(c)...)
	}
	return out
}

// NumModels is the number of object models the knowledge base knows.
func (b *Base) NumModels() int {
	n := 0
	for _, ms := range b.world().models {
		n += len(ms)
	}
	return n
}

// ModelByName returns a model by its full name ("apple-agveuv") or id.
func (b *Base) ModelByName(name string) (Model, bool) {
	w := b.tier(tierModels)
	w.allModels()
	m, ok := w.modelIdx[name]
	return m, ok
}

// RoomsWith lists the room instances of every scene that hold objects of
// id's subtree, with how many.
func (b *Base) RoomsWith(id SynsetID) []RoomUse {
	cats := b.CategoriesOf(id)
	if len(cats) == 0 {
		return nil
	}
	set := make(map[string]bool, len(cats))
	for _, c := range cats {
		set[c] = true
	}
	var out []RoomUse
	for _, s := range b.Scenes() {
		for _, r := range s.Rooms {
			n := 0
			for _, o := range r.Objects {
				if set[o.Category] {
					n += o.Count
				}
			}
			if n > 0 {
				out = append(out, RoomUse{Scene: s.Name, Room: r.Name, Type: r.Type, Count: n})
			}
		}
	}
	return out
}

// AttachmentCompatible reports whether some model of child's subtree has a
// male attachment link matching a female link of some model of parent's
// subtree, so (attached child parent) can hold. known is false when the
// knowledge base has no attachment data at all, and the question cannot
// be answered.
func (b *Base) AttachmentCompatible(child, parent SynsetID) (compatible, known bool) {
	if !b.tier(tierModels).hasAttachments {
		return false, false
	}
	male := map[string]bool{}
	for _, m := range b.ModelsOf(child) {
		for _, t := range m.MaleAttachments {
			male[t] = true
		}
	}
	if len(male) == 0 {
		return false, true
	}
	for _, m := range b.ModelsOf(parent) {
		for _, t := range m.FemaleAttachments {
			if male[t] {
				return true, true
			}
		}
	}
	return false, true
}
