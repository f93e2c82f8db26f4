package robolab

import (
	"fmt"
	"slices"
	"strings"
)

// names resolves a demo's RoboLab object names to instances of the
// activity: through the map, else as they are; each instance recorded by
// one object at most.
type names struct {
	opts       Options
	file, base string
	insts      map[string]string // folded → as declared
	used       map[string]string // folded instance → RoboLab name
	unmapped   []string
}

func newNames(opts Options, file, base string) (*names, error) {
	n := &names{opts: opts, file: file, base: base, insts: map[string]string{}, used: map[string]string{}}
	for _, in := range opts.Instances {
		n.insts[fold(in)] = in
	}
	if opts.Map != nil && opts.Instances != nil {
		for name := range opts.Map.Static {
			if _, ok := n.insts[fold(name)]; !ok {
				return nil, fmt.Errorf("%s: static: %s is not an instance of %s", opts.Map.File, name, opts.Activity)
			}
		}
	}
	return n, nil
}

// resolve gives the instance of a RoboLab name; "" when it is not used
// (mapped to null, or neither mapped nor an instance: see check).
func (n *names) resolve(name string) (string, error) {
	inst, mapped := "", false
	if m := n.opts.Map; m != nil {
		if inst, mapped = m.Names[name]; mapped && inst == "" {
			return "", nil
		}
	}
	if !mapped {
		inst = name
	}
	if n.opts.Instances != nil {
		canon, ok := n.insts[fold(inst)]
		if !ok {
			if mapped {
				return "", fmt.Errorf("%s: names.%s: %s is not an instance of %s", n.opts.Map.File, name, inst, n.opts.Activity)
			}
			n.unmapped = append(n.unmapped, name)
			return "", nil
		}
		inst = canon
	}
	if other, dup := n.used[fold(inst)]; dup {
		return "", &Error{File: n.file, Path: n.base + "states", Msg: fmt.Sprintf("%s and %s are both %s", other, name, inst)}
	}
	n.used[fold(inst)] = name
	return inst, nil
}

// check reports the names neither mapped nor instances: an error without
// a map, else a warning ("" when there are none).
func (n *names) check() (string, error) {
	if len(n.unmapped) == 0 {
		return "", nil
	}
	slices.Sort(n.unmapped)
	list := strings.Join(n.unmapped, ", ")
	if n.opts.Map == nil {
		return "", &Error{File: n.file, Path: n.base + "states",
			Msg: fmt.Sprintf("%s %s of %s: give a --map file naming their BDDL instances", list, plural(len(n.unmapped), "is not an instance", "are not instances"), n.opts.Activity)}
	}
	return fmt.Sprintf("ignored, neither in %s nor instances of %s: %s", n.opts.Map.File, n.opts.Activity, list), nil
}
