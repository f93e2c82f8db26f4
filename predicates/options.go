package predicates

import "math"

// NegationMode selects how (not ...) is read (SEMANTICS.md A6).
type NegationMode uint8

const (
	// ReferenceNegation is plain Kleene NOT, as the reference simulator
	// evaluates it, so scores match published results.
	ReferenceNegation NegationMode = iota
	// StrictNegation rewrites the definition to negation normal form and
	// reads a negated member of a pair as its strict partner: not open →
	// closed, not filled → empty, not folded → unfolded (and back).
	StrictNegation
)

func (m NegationMode) String() string {
	if m == StrictNegation {
		return "strict"
	}
	return "reference"
}

// Options configure Compile. The zero value is the reference behaviour with
// the reference's defaults; a zero numeric field means "use the default".
type Options struct {
	// Negation selects reference (default) or strict negation.
	Negation NegationMode
	// StrictPairs replaces the reference's row/column cover test of
	// forpairs and fornpairs with a one-to-one matching.
	StrictPairs bool
	// Exhaustive evaluates every node instead of stopping at the deciding
	// child. The value is the same; only the work (and EvalStats) differ.
	Exhaustive bool
	// Geometry holds the tolerances of the box-based approximations.
	Geometry Geometry
	// Particles holds the particle thresholds.
	Particles ParticleThresholds
	// OpenThreshold is the fraction of a joint's range past its closed end
	// beyond which the joint counts as open (reference 0.05).
	OpenThreshold float64
	// Cloth holds the folded/unfolded thresholds.
	Cloth ClothThresholds
	// Wildcards gives the concrete instances a wildcard such as
	// cabinet.n.01_* stands for in this recording or scene, e.g.
	// {"cabinet.n.01_*": {"cabinet.n.01_2", "cabinet.n.01_3"}}. An
	// unexpanded wildcard stands for no object.
	Wildcards map[string][]string
}

// Geometry are the tolerances of the geometric approximations
// (SEMANTICS.md A4 and B §5.2). Each is used only when no recorded fact or
// quantity decides the atom, and decisions made with them are counted as
// approximate.
type Geometry struct {
	// TouchTolerance is the largest box separation, in metres, that still
	// counts as touching (default 0.01).
	TouchTolerance float64
	// VerticalRange is the length of the vertical rays of ontop and under,
	// in metres (default 5.0).
	VerticalRange float64
	// HorizontalRange is the length of nextto's horizontal rays (default 5.0).
	HorizontalRange float64
	// NextToRatio scales the box gap limit of nextto: the gap may be at
	// most NextToRatio × (sum of both boxes' six extents). The reference
	// writes this as L/6 with L the mean over x, y, z of the two extents'
	// sum, i.e. (sum of six extents)/3/6: the default is 1/18.
	NextToRatio float64
	// HorizontalRays is the number of horizontal ray directions, evenly
	// spaced (default 16: multiples of 22.5°, as in the V1 reference).
	HorizontalRays int
	// OverlapFraction is the share of the parent's footprint a cloth must
	// cover for overlaid (default 0.5, strict).
	OverlapFraction float64
	// StandTolerance: an object whose centre lies inside another's box
	// stands beneath it (under) when their box bottoms are this close, in
	// metres, else rests in or on it (ontop) (default 0.005).
	StandTolerance float64
	// IgnoreError decides geometric atoms on estimated boxes as on exact
	// ones, with the thresholds alone, ignoring the uncertainty recorded
	// with the boxes (State.SetBoxError): two-valued answers.
	IgnoreError bool
}

// ParticleThresholds are the particle predicates' thresholds.
type ParticleThresholds struct {
	// FillFraction: filled when the fill fraction exceeds it (default 0.2).
	FillFraction float64
	// CoverCount: covered when at least this many particles cover the
	// object (default 1).
	CoverCount float64
	// VisualRemovalLimit is the saturation limit of a particle remover for
	// a visual substance when none is recorded (default 200, newer
	// BEHAVIOR-1K; the older OmniGibson used 40).
	VisualRemovalLimit float64
	// PhysicalRemovalLimit is the same for physical substances (default 400).
	PhysicalRemovalLimit float64
	// DefaultLimit is the saturation limit of any other object (default 1e6).
	DefaultLimit float64
}

// ClothThresholds are the folded/unfolded thresholds (SEMANTICS.md B §1.6.3).
type ClothThresholds struct {
	MinSmoothness    float64 // default 0.5: both tests need smoothness ≥ it
	FoldedArea       float64 // default 0.75: folded needs area ratio < it
	FoldedDiagonal   float64 // default 0.85: folded needs diagonal ratio < it
	UnfoldedArea     float64 // default 0.9: unfolded needs area ratio ≥ it
	UnfoldedDiagonal float64 // default 0.9: unfolded needs diagonal ratio ≥ it
}

// Defaults of the options, from the reference simulator (SEMANTICS.md A4, A5).
const (
	DefaultTouchTolerance       = 0.01
	DefaultVerticalRange        = 5.0
	DefaultHorizontalRange      = 5.0
	DefaultNextToRatio          = 1.0 / 18
	DefaultHorizontalRays       = 16
	DefaultOverlapFraction      = 0.5
	DefaultStandTolerance       = 0.005
	DefaultFillFraction         = 0.2
	DefaultCoverCount           = 1
	DefaultVisualRemovalLimit   = 200
	DefaultPhysicalRemovalLimit = 400
	DefaultSaturationLimit      = 1e6
	DefaultOpenThreshold        = 0.05
)

// withDefaults fills every zero field with its default.
func (o Options) withDefaults() Options {
	def := func(v *float64, d float64) {
		if *v == 0 || math.IsNaN(*v) {
			*v = d
		}
	}
	g := &o.Geometry
	def(&g.TouchTolerance, DefaultTouchTolerance)
	def(&g.VerticalRange, DefaultVerticalRange)
	def(&g.HorizontalRange, DefaultHorizontalRange)
	def(&g.NextToRatio, DefaultNextToRatio)
	def(&g.OverlapFraction, DefaultOverlapFraction)
	def(&g.StandTolerance, DefaultStandTolerance)
	if g.HorizontalRays <= 0 {
		g.HorizontalRays = DefaultHorizontalRays
	}
	p := &o.Particles
	def(&p.FillFraction, DefaultFillFraction)
	def(&p.CoverCount, DefaultCoverCount)
	def(&p.VisualRemovalLimit, DefaultVisualRemovalLimit)
	def(&p.PhysicalRemovalLimit, DefaultPhysicalRemovalLimit)
	def(&p.DefaultLimit, DefaultSaturationLimit)
	def(&o.OpenThreshold, DefaultOpenThreshold)
	c := &o.Cloth
	def(&c.MinSmoothness, 0.5)
	def(&c.FoldedArea, 0.75)
	def(&c.FoldedDiagonal, 0.85)
	def(&c.UnfoldedArea, 0.9)
	def(&c.UnfoldedDiagonal, 0.9)
	return o
}
