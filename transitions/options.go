package transitions

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// ParseOptions reads Options from a comma-separated list, as the command
// line gives them: same-step, gpu-dynamics, max-anonymous=N, fixed=NAME
// and movable=NAME (an instance declared fixed-base or not). An empty
// list is the zero Options.
func ParseOptions(list string) (Options, error) {
	var o Options
	for _, item := range strings.Split(list, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		key, val, hasVal := strings.Cut(item, "=")
		switch {
		case key == "same-step" && !hasVal:
			o.SameStep = true
		case key == "gpu-dynamics" && !hasVal:
			o.GPUDynamics = true
		case key == "max-anonymous" && hasVal:
			n, err := strconv.Atoi(val)
			if err != nil || n < -1 {
				return Options{}, fmt.Errorf("transition option %q: want a whole number ≥ -1 (-1: keep no anonymous part)", item)
			}
			o.MaxAnonymous = n
		case (key == "fixed" || key == "movable") && hasVal && val != "":
			if o.FixedBase == nil {
				o.FixedBase = map[string]bool{}
			}
			o.FixedBase[val] = key == "fixed"
		default:
			return Options{}, fmt.Errorf("unknown transition option %q: want same-step, gpu-dynamics, max-anonymous=N, fixed=NAME or movable=NAME", item)
		}
	}
	return o, nil
}

// String is the options as ParseOptions reads them, in a fixed order.
func (o Options) String() string {
	var parts []string
	if o.SameStep {
		parts = append(parts, "same-step")
	}
	if o.GPUDynamics {
		parts = append(parts, "gpu-dynamics")
	}
	if o.MaxAnonymous != 0 {
		parts = append(parts, "max-anonymous="+strconv.Itoa(o.MaxAnonymous))
	}
	names := make([]string, 0, len(o.FixedBase))
	for n := range o.FixedBase {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		if o.FixedBase[n] {
			parts = append(parts, "fixed="+n)
		} else {
			parts = append(parts, "movable="+n)
		}
	}
	return strings.Join(parts, ",")
}
