package oopsie

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/scigolib/hdf5"
)

// attrsOf reads every attribute of a group or dataset as values,
// one-element arrays as scalars (the HDF5 library writes scalars that
// way).
func attrsOf(o hdf5.Object) (out map[string]any, err error) {
	defer func() {
		if p := recover(); p != nil {
			out, err = nil, fmt.Errorf("corrupt attributes (%v)", p)
		}
	}()
	out = map[string]any{}
	read := func(name string, v any, rerr error) error {
		if rerr != nil {
			// an attribute of a type the library cannot read (an enum,
			// such as a numpy bool) is kept as such, not fatal
			out[name] = Unreadable{rerr.Error()}
			return nil
		}
		out[name] = scalar(v)
		return nil
	}
	switch x := o.(type) {
	case *hdf5.Group:
		as, err := x.Attributes()
		if err != nil {
			return nil, err
		}
		for _, a := range as {
			v, rerr := a.ReadValue()
			if err := read(a.Name, v, rerr); err != nil {
				return nil, err
			}
		}
	case *hdf5.Dataset:
		as, err := x.Attributes()
		if err != nil {
			return nil, err
		}
		for _, a := range as {
			v, rerr := a.ReadValue()
			if err := read(a.Name, v, rerr); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// Unreadable is the value of an attribute the HDF5 library cannot read.
type Unreadable struct{ Err string }

// scalar unwraps one-element arrays.
func scalar(v any) any {
	switch x := v.(type) {
	case []string:
		if len(x) == 1 {
			return x[0]
		}
	case []float64:
		if len(x) == 1 {
			return x[0]
		}
	case []float32:
		if len(x) == 1 {
			return float64(x[0])
		}
	case float32:
		return float64(x)
	case []int64:
		if len(x) == 1 {
			return x[0]
		}
	case []int32:
		if len(x) == 1 {
			return int64(x[0])
		}
	case int32:
		return int64(x)
	case []uint64:
		if len(x) == 1 {
			return x[0]
		}
	case []uint8:
		if len(x) == 1 {
			return int64(x[0])
		}
	}
	return v
}

func str(attrs map[string]any, name string) (string, bool) {
	s, ok := attrs[name].(string)
	return s, ok
}

func num(attrs map[string]any, name string) (float64, bool) {
	switch x := attrs[name].(type) {
	case string:
		f, err := strconv.ParseFloat(strings.TrimSpace(x), 64)
		return f, err == nil
	case bool:
		if x {
			return 1, true
		}
		return 0, true
	case float64:
		return x, true
	case int64:
		return float64(x), true
	case uint64:
		return float64(x), true
	}
	return 0, false
}
