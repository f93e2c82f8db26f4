package omnigibson

import "sync"

// Pool pools the offset estimate over several tasks' templates: a model
// that recurs in several task folders of one sampled_task (the same
// house's furniture in many tasks) and has no vote in a template's own
// scene takes the estimate from the votes of all of them, each object
// voting on the supports of its own scene. A template's own votes are
// kept where it has them: a scene's ground is its robots' (a patio a few
// centimetres above the kitchen floor other scenes' robots stand on), so
// votes from elsewhere fill gaps, never overrule; and only for fixed-base
// objects (furniture stands as it stood in every scene, where a task's
// objects, tilted or upside down, were voted in another pose). Give
// one Pool to the Options of every Converter of a run, make them all,
// then convert: the estimate runs once, at the first conversion, over the
// templates added by then. A Pool is safe for concurrent use.
type Pool struct {
	mu    sync.Mutex
	convs []*Converter
	done  bool
	given map[*Converter]bool // converters the joint estimate served
}

// NewPool returns an empty pool.
func NewPool() *Pool { return &Pool{} }

func (p *Pool) add(c *Converter) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.convs = append(p.convs, c)
}

// estimate runs the joint estimate once and gives each converter its
// models' offsets and votes, by its own dense model ids. Converters of
// the same template (several definitions, partial room lists) share one
// scene, so it votes once. A converter added after the estimate ran gets
// its template's own.
func (p *Pool) estimate(c *Converter) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.done {
		if !p.given[c] {
			c.dz, c.hasDz = c.estimate(c.templateItems())
		}
		return
	}
	p.done = true
	p.given = make(map[*Converter]bool, len(p.convs))
	ids := map[[2]string]int{}
	global := make([][]int, len(p.convs)) // per converter, its model id → the pool's
	worldOf := map[string]int{}
	var robots [][]RobotPose
	var objs []placed
	for ci, c := range p.convs {
		global[ci] = make([]int, c.nModels)
		for i := range c.tmpl.Objects {
			o := &c.tmpl.Objects[i]
			key := [2]string{o.Category, o.Model}
			id, ok := ids[key]
			if !ok {
				id = len(ids)
				ids[key] = id
			}
			global[ci][c.modelID[i]] = id
		}
		if _, seen := worldOf[c.tmpl.Path]; seen {
			continue
		}
		w := len(robots)
		worldOf[c.tmpl.Path] = w
		robots = append(robots, c.groundPoses())
		for _, it := range c.templateItems() {
			if it.hasBox {
				objs = append(objs, placed{world: w, model: global[ci][it.model], root: vec(it.state.Pos), base: it.box, scaleZ: it.obj.Scale[2], exact: it.exact})
			}
		}
	}
	var st voteStats
	dz, has := estimateOffsets(objs, len(ids), robots, &st)
	for ci, c := range p.convs {
		p.given[c] = true
		c.dz, c.hasDz = c.estimate(c.templateItems())
		fixed := make([]bool, c.nModels) // models of fixed-base objects only
		for m := range fixed {
			fixed[m] = true
		}
		for i := range c.tmpl.Objects {
			if !c.tmpl.Objects[i].FixedBase {
				fixed[c.modelID[i]] = false
			}
		}
		for m, g := range global[ci] {
			if !c.hasDz[m] && has[g] && fixed[m] {
				c.dz[m], c.hasDz[m] = dz[g], true
				c.votes.n[m], c.votes.mad[m] = st.n[g], st.mad[g]
			}
		}
	}
}
