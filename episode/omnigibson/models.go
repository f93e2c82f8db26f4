package omnigibson

import (
	"sort"

	"gonum.org/v1/gonum/spatial/r3"

	"github.com/openbddl/bddl/kb"
)

// modelInfo is what the knowledge base and the dataset say of a scene
// object's model, resolved once per template.
type modelInfo struct {
	size      [3]float64
	hasSize   bool
	meta      *ModelMeta
	container bool
	// sizeGuessed: the size is its category's median (the model is not
	// in the inventory).
	sizeGuessed bool
	err         error
}

// categorySize is the per-axis median size of a category's models.
func categorySize(b *kb.Base, category string) ([3]float64, bool) {
	var axes [3][]float64
	for _, m := range b.Models(category) {
		if m.HasSize {
			for k := 0; k < 3; k++ {
				axes[k] = append(axes[k], m.Size[k])
			}
		}
	}
	if len(axes[0]) == 0 {
		return [3]float64{}, false
	}
	var out [3]float64
	for k := range out {
		sort.Float64s(axes[k])
		out[k] = axes[k][len(axes[k])/2]
	}
	return out, true
}

// resolveModels resolves every template object's model once.
func (c *Converter) resolveModels() {
	t := c.tmpl
	c.byUUID = make(map[int64]string, len(t.Objects))
	c.models = make([]modelInfo, len(t.Objects))
	c.modelID = make([]int, len(t.Objects))
	ids := map[[2]string]int{}
	for i := range t.Objects {
		o := &t.Objects[i]
		c.byUUID[simUUID(o.Name)] = o.Name
		c.models[i] = c.resolveModel(o)
		key := [2]string{o.Category, o.Model}
		id, ok := ids[key]
		if !ok {
			id = len(ids)
			ids[key] = id
		}
		c.modelID[i] = id
	}
	c.nModels = len(ids)
}

// resolveModel looks a scene object's model up: its size (dataset, else
// knowledge base), dataset metadata, and whether it can hold particles.
func (c *Converter) resolveModel(o *SceneObject) modelInfo {
	var mi modelInfo
	if c.opts.Dataset != nil && o.Category != "" && o.Model != "" {
		m, err := c.opts.Dataset.Model(o.Category, o.Model)
		if err != nil {
			mi.err = err
			return mi
		}
		mi.meta = m
		if m != nil && m.HasSize {
			mi.size, mi.hasSize = m.Size, true
		}
	}
	mi.container = true
	if c.base != nil && o.Model != "" {
		m, ok := c.base.ModelByName(o.Category + "-" + o.Model)
		if !ok {
			m, ok = c.base.ModelByName(o.Model)
		}
		if !mi.hasSize && (!ok || !m.HasSize) {
			// A model the inventory lacks: the median size of its
			// category's models stands in (approximate).
			if sz, found := categorySize(c.base, o.Category); found {
				mi.size, mi.hasSize, mi.sizeGuessed = sz, true, true
			}
		}
		if ok {
			if !mi.hasSize && m.HasSize {
				mi.size, mi.hasSize = m.Size, true
			}
			// Only a model with a fillable volume holds particles; one
			// the inventory knows nothing of is given the benefit.
			if len(m.MetaLinks) > 0 {
				mi.container = m.HasMetaLink("fillable") || m.HasMetaLink("openfillable")
			}
		}
	}
	return mi
}

// perturbSize, set by tests only, changes a model's size before its box
// is placed: how the verdicts hold up when the inventory's sizes are off.
var perturbSize func(category, model string, size *[3]float64)

// perturbPose, set by tests only, moves an object's root link (by its
// name, the same in the template and its instances): how the verdicts
// hold up when the simulator's poses jitter.
var perturbPose func(name string, pos *[3]float64)

// placeBox gives the item its box: the model's size × scale about the
// root link, shifted by the dataset's offset when there is one.
func (c *Converter) placeBox(it *sceneItem, mi *modelInfo) error {
	if mi.err != nil {
		return mi.err
	}
	it.meta, it.container, it.sizeGuessed = mi.meta, mi.container, mi.sizeGuessed
	if !mi.hasSize || !it.state.HasPose {
		return nil
	}
	o, size := it.obj, mi.size
	if perturbSize != nil {
		perturbSize(o.Category, o.Model, &size)
	}
	half := r3.Vec{X: size[0] * o.Scale[0] / 2, Y: size[1] * o.Scale[1] / 2, Z: size[2] * o.Scale[2] / 2}
	center := vec(it.state.Pos)
	b := NewBox(center, half, it.state.Quat)
	if it.meta != nil && it.meta.HasOffset {
		off := r3.Vec{X: it.meta.Offset[0] * o.Scale[0], Y: it.meta.Offset[1] * o.Scale[1], Z: it.meta.Offset[2] * o.Scale[2]}
		b.Center = r3.Add(center, rotate(it.state.Quat, off))
		it.exact = true
	}
	it.box, it.hasBox = b, true
	return nil
}
