package checkrun

import (
	"fmt"

	"github.com/openbddl/bddl/predicates"
)

// CompileOptions are the predicates options check's flags ask for:
// --negation (reference or strict), --strict-pairs and the geometry,
// each value checked against its range (the error names the flag).
func CompileOptions(negation string, strictPairs bool, g predicates.Geometry) (predicates.Options, error) {
	var opts predicates.Options
	switch negation {
	case "reference":
		opts.Negation = predicates.ReferenceNegation
	case "strict":
		opts.Negation = predicates.StrictNegation
	default:
		return opts, fmt.Errorf("--negation %q: use reference or strict", negation)
	}
	for _, v := range []struct {
		name   string
		val    float64
		zeroOK bool
	}{{"touch-tolerance", g.TouchTolerance, true}, {"vertical-range", g.VerticalRange, false}, {"horizontal-range", g.HorizontalRange, false},
		{"nextto-ratio", g.NextToRatio, false}, {"overlap-fraction", g.OverlapFraction, false}} {
		if !(v.val > 0 || v.zeroOK && v.val == 0) || v.val > 1e6 {
			return opts, fmt.Errorf("--%s %v: must be a positive number", v.name, v.val)
		}
	}
	if g.HorizontalRays < 1 || g.HorizontalRays > 360 {
		return opts, fmt.Errorf("--horizontal-rays %d: must be between 1 and 360", g.HorizontalRays)
	}
	opts.StrictPairs = strictPairs
	opts.Geometry = g
	return opts, nil
}
