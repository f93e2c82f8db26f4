package robolab

import (
	"fmt"
	"math"

	"github.com/scigolib/hdf5"
)

// attrNumber reads a numeric scalar attribute of a group.
func attrNumber(g *hdf5.Group, name string) (float64, bool) {
	v, ok := attrValue(g, name)
	if !ok {
		return 0, false
	}
	switch x := v.(type) {
	case int64:
		return float64(x), true
	case int32:
		return float64(x), true
	case uint64:
		return float64(x), true
	case uint32:
		return float64(x), true
	case float64:
		return x, true
	case float32:
		return float64(x), true
	case []int64:
		if len(x) == 1 {
			return float64(x[0]), true
		}
	case []float64:
		if len(x) == 1 {
			return x[0], true
		}
	}
	return 0, false
}

// attrString reads a string attribute of a group.
func attrString(g *hdf5.Group, name string) (string, bool) {
	v, ok := attrValue(g, name)
	if !ok {
		return "", false
	}
	switch x := v.(type) {
	case string:
		return x, true
	case []string:
		if len(x) == 1 {
			return x[0], true
		}
	}
	return "", false
}

// hasAttr reports whether a group has an attribute, whatever its type.
func hasAttr(g *hdf5.Group, name string) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	attrs, err := g.Attributes()
	if err != nil {
		return false
	}
	for _, a := range attrs {
		if a.Name == name {
			return true
		}
	}
	return false
}

func attrValue(g *hdf5.Group, name string) (v any, ok bool) {
	defer func() {
		if recover() != nil {
			v, ok = nil, false
		}
	}()
	attrs, err := g.Attributes()
	if err != nil {
		return nil, false
	}
	for _, a := range attrs {
		if a.Name == name {
			v, err := a.ReadValue()
			return v, err == nil
		}
	}
	return nil, false
}

// badAttr says why a group's attribute name, when present, is not a
// number that ok accepts; "" when it is absent or acceptable. A present
// but unusable attribute is an error, never silently replaced.
func badAttr(g *hdf5.Group, name, want string, ok func(float64) bool) string {
	if !hasAttr(g, name) {
		return ""
	}
	v, isNum := attrNumber(g, name)
	if !isNum {
		return fmt.Sprintf("attribute %s is not a number (expected %s)", name, want)
	}
	if !ok(v) {
		return fmt.Sprintf("attribute %s is %v (expected %s)", name, v, want)
	}
	return ""
}

// validSteps accepts a step count: a whole number from 1 to maxRows.
func validSteps(v float64) bool { return v >= 1 && v <= maxRows && v == math.Trunc(v) }
