package sampler

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"sync"

	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/episode"
	"github.com/openbddl/bddl/kb"
	"github.com/openbddl/bddl/predicates"
)

// Sampler samples initial (and goal) configurations of activities in the
// scenes of a knowledge base. It is safe for concurrent use: scenes and
// compiled programs are built once and shared read-only.
type Sampler struct {
	base *kb.Base
	opts predicates.Options

	mu        sync.Mutex
	scenes    map[string]*Scene
	programs  *predicates.ProgramCache
	digest    string
	geo       geometry
	metaKnown int      // 0 not computed, 1 yes, 2 no
	typical   sync.Map // kb.SynsetID → typical largest dimension (float64)
	// scales are the model scales recorded by every scene file added
	// (Scene.ModelScales), replaced, never changed, when one is added.
	scales map[string][3]float64
	// chosen are the models the scene files added bind to the task's
	// instances, per synset (Scene.TaskModels), likewise replaced.
	chosen map[string][]string
	// surfaces are the support surfaces the scene files added record
	// (Scene.Surfaces), the lowest per model, likewise replaced.
	surfaces map[string]float64
	// lists are the sampling whitelist and blacklist (DefaultLists unless
	// SetLists replaced them; nil: none).
	lists *Lists
}

// New returns a sampler over a knowledge base. opts are the evaluator
// options sampled states are verified with (use the ones the states will
// be checked with; the zero value is the reference).
func New(base *kb.Base, opts predicates.Options) *Sampler {
	return &Sampler{base: base, opts: opts, geo: newGeometry(opts), scenes: map[string]*Scene{}, programs: predicates.NewProgramCache(base, opts), lists: DefaultLists()}
}

// SetLists replaces the sampling lists model choice follows (by default
// the reference's own, DefaultLists); nil turns them off.
func (s *Sampler) SetLists(l *Lists) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.lists = l
}

// samplingLists is the current sampling lists (read-only).
func (s *Sampler) samplingLists() *Lists {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lists
}

// Base is the sampler's knowledge base.
func (s *Sampler) Base() *kb.Base { return s.base }

// AddScene makes a scene (read from a simulator file, say) available by
// name, replacing a knowledge-base scene of the same name. The model
// scales the scene records (Scene.ModelScales) apply from then on to
// every scene: a model the reference loads rescaled is loaded so
// wherever the sampler picks it (see docs/sampler.md, model choice).
func (s *Sampler) AddScene(sc *Scene) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.scenes[sc.Name] = sc
	if len(sc.ModelScales) > 0 {
		next := make(map[string][3]float64, len(s.scales)+len(sc.ModelScales))
		for k, v := range s.scales {
			next[k] = v
		}
		for k, v := range sc.ModelScales {
			if prev, ok := next[k]; !ok || scaleLess(prev, v) {
				next[k] = v
			}
		}
		s.scales = next
	}
	if len(sc.TaskModels) > 0 {
		next := make(map[string][]string, len(s.chosen)+len(sc.TaskModels))
		for k, v := range s.chosen {
			next[k] = v
		}
		for k, v := range sc.TaskModels {
			l := slices.Clone(next[k])
			for _, m := range v {
				l = insertSorted(l, m)
			}
			next[k] = l
		}
		s.chosen = next
	}
	if len(sc.Surfaces) > 0 {
		next := make(map[string]float64, len(s.surfaces)+len(sc.Surfaces))
		for k, v := range s.surfaces {
			next[k] = v
		}
		for k, v := range sc.Surfaces {
			if prev, ok := next[k]; !ok || v < prev {
				next[k] = v
			}
		}
		s.surfaces = next
	}
}

// supportSurfaces is the current table of recorded support surfaces
// (read-only).
func (s *Sampler) supportSurfaces() map[string]float64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.surfaces
}

// taskModels is the current table of the reference's chosen models per
// synset (read-only).
func (s *Sampler) taskModels() map[string][]string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.chosen
}

// modelScales is the current table of recorded model scales (read-only).
func (s *Sampler) modelScales() map[string][3]float64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.scales
}

// SceneNames lists the scenes the sampler can use: those added, then the
// knowledge base's, sorted.
func (s *Sampler) SceneNames() []string {
	seen := map[string]bool{}
	var out []string
	s.mu.Lock()
	for n := range s.scenes {
		seen[n] = true
		out = append(out, n)
	}
	s.mu.Unlock()
	for _, sc := range s.base.Scenes() {
		if !seen[sc.Name] {
			out = append(out, sc.Name)
		}
	}
	sort.Strings(out)
	return out
}

// Scene returns a scene by name, laying out a knowledge-base scene on
// first use.
func (s *Sampler) Scene(name string) (*Scene, bool) {
	s.mu.Lock()
	sc, ok := s.scenes[name]
	s.mu.Unlock()
	if ok {
		return sc, true
	}
	ks, ok := s.base.Scene(name)
	if !ok {
		return nil, false
	}
	sc = LayoutScene(s.base, ks)
	s.mu.Lock()
	if prev, ok := s.scenes[name]; ok {
		sc = prev
	} else {
		s.scenes[name] = sc
	}
	s.mu.Unlock()
	return sc, true
}

// Request is one configuration to sample.
type Request struct {
	// Activity names the activity in the output (its directory name).
	Activity string
	Problem  *bddl.Problem
	// Scenes are the scenes to try, in order; empty tries every scene of
	// the sampler in an order drawn from the seed.
	Scenes []string
	Seed   uint64
	// Index distinguishes the configurations of one seed (-n).
	Index int
	// Goal samples a state in which the goal holds (one of its ground
	// options) rather than :init.
	Goal bool
	// NoShrink refuses (a no-space failure) where an object fits only
	// shrunk.
	NoShrink bool
}

// Result is a sampled, verified configuration.
type Result struct {
	Activity string
	Scene    string
	Source   string
	Seed     uint64
	Index    int
	Goal     bool
	// SamplingLists is the digest of the sampling lists applied (Lists.Digest),
	// "" when they do not name the task.
	SamplingLists string
	Program       *predicates.Program
	State         *predicates.State
	Objects       []Object
	// Tried are the scenes tried before this one, with why each failed.
	Tried []*Failure
	// scene and rooms used, for drawing.
	scene *Scene
	rooms []*Room
	// the recorded fields of each instance and the facts, as written.
	fields            map[string]*episode.Object
	facts, falseFacts []episode.Atom
}

// Object is one instance of the sampled configuration.
type Object struct {
	Name     string
	Synset   string
	Category string
	Model    string
	// SceneObject is the scene object an in-room instance is bound to.
	SceneObject string
	Exists      bool
	Substance   bool
	Placed      bool
	Box         predicates.Box
	Yaw         float64
	Room        string
	Parent      string // the object it was placed relative to
	Relation    string // how: ontop, inside, ...
	// Scale is the factor the model was shrunk by to fit (SEMANTICS.md B
	// §3.3 phase 6), 1 when it was not.
	Scale float64
	// ModelScale is the scale the model is loaded at, per axis of its own
	// frame, before any shrinking: as a scene file records the reference
	// loading it (Scene.ModelScales), else 1, 1, 1.
	ModelScale [3]float64
	st         objectStates
}

// Sample samples one configuration. Without Scenes in the request it
// tries every scene in an order drawn from the seed, and with several
// scenes it returns the first that succeeds; a *Failure explains why
// none did.
func (s *Sampler) Sample(req Request) (*Result, error) {
	if req.Problem == nil {
		return nil, &Failure{Kind: Unsupported, Message: "no problem to sample"}
	}
	if req.Activity == "" {
		req.Activity = req.Problem.Name.Name
	}
	scenes := req.Scenes
	if len(scenes) == 0 {
		scenes = s.SceneNames()
		ShuffleScenes(scenes, req.Seed, req.Activity)
	}
	if len(scenes) == 0 {
		return nil, &Failure{Kind: NoScene, Message: "the knowledge base has no scenes"}
	}
	var tried []*Failure
	for _, name := range scenes {
		sc, ok := s.Scene(name)
		if !ok {
			tried = append(tried, &Failure{Kind: NoScene, Scene: name, Message: "no scene " + name + " in the knowledge base"})
			continue
		}
		res, fail := s.sampleIn(req, sc)
		if fail == nil {
			res.Tried = tried
			return res, nil
		}
		fail.Scene = name
		tried = append(tried, fail)
	}
	if len(tried) == 1 {
		return nil, tried[0]
	}
	return nil, &Failure{Kind: NoScene, Message: fmt.Sprintf("none of %d scenes could host the activity", len(tried)), Tried: tried}
}

// newRand is the random source of one configuration: the seed mixed
// with what it is for, so that each configuration is reproducible alone
// whatever else runs.
func newRand(seed uint64, activity, scene string, index int) *rand.Rand {
	h := fnv.New64a()
	h.Write([]byte(activity))
	h.Write([]byte{0})
	h.Write([]byte(scene))
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], uint64(index))
	h.Write(b[:])
	return rand.New(rand.NewPCG(seed, h.Sum64()))
}

// program compiles the problem with a wildcard expansion, once.
func (s *Sampler) program(p *bddl.Problem, wild map[string][]string) (*predicates.Program, error) {
	return s.programs.Compile(fmt.Sprintf("%p", p), p, wild)
}

// Digest identifies the knowledge base's content as the sampler uses it
// (synsets, thresholds, scenes, models), so a configuration records what
// it was sampled from.
func (s *Sampler) Digest() string {
	s.mu.Lock()
	d := s.digest
	s.mu.Unlock()
	if d != "" {
		return d
	}
	h := sha256.New()
	b := s.base
	for i := 0; i < b.NumSynsets(); i++ {
		id := kb.SynsetID(i)
		t := b.Thresholds(id)
		fmt.Fprintf(h, "%s|%v|%v|%v|%v|%v\n", b.Name(id), t.Cook, t.Burn, t.Heat, t.Freeze, t.Ignition)
		for _, p := range b.Properties(id) {
			fmt.Fprintf(h, " %s", p.Name)
		}
		for _, c := range b.Categories(id) {
			for _, m := range b.Models(c) {
				fmt.Fprintf(h, " %s%v%v", m.Name, m.Size, m.MetaLinks)
			}
		}
	}
	for _, sc := range b.Scenes() {
		for _, r := range sc.Rooms {
			for _, o := range r.Objects {
				fmt.Fprintf(h, "%s/%s/%s/%d\n", sc.Name, r.Name, o.Model, o.Count)
			}
		}
	}
	d = "sha256:" + hex.EncodeToString(h.Sum(nil))[:16]
	s.mu.Lock()
	s.digest = d
	s.mu.Unlock()
	return d
}

// within reports whether v lies in [lo, hi].
func within(v, lo, hi float64) bool { return v >= lo && v <= hi }

var _ = math.Pi

// ShuffleScenes puts scene names in the order the seed draws for an
// activity: the order in which they are tried.
func ShuffleScenes(names []string, seed uint64, activity string) {
	sort.Strings(names)
	r := newRand(seed, activity, "scenes", 0)
	r.Shuffle(len(names), func(i, j int) { names[i], names[j] = names[j], names[i] })
}
