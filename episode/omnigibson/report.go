package omnigibson

import (
	"encoding/json"
	"sort"
)

// Report says how a conversion was made: what is exact and what rests on
// an approximation.
type Report struct {
	Instance string `json:"instance"` // the instance file, or the template for its own state
	Objects  int    `json:"objects"`
	// Boxes: objects given a box; BoxesExact of them with the dataset's
	// offset; BoxesEstimated with the support estimate; the rest are
	// centred on the root link.
	Boxes          int `json:"boxes"`
	BoxesExact     int `json:"boxes_exact"`
	BoxesEstimated int `json:"boxes_estimated"`
	// NoSize lists objects whose model has no size: no box, so their
	// geometric atoms stay undetermined.
	NoSize []string `json:"no_size,omitempty"`
	// SizesGuessed lists objects whose model the inventory lacks, boxed
	// with their category's median size.
	SizesGuessed []string `json:"sizes_guessed,omitempty"`
	// Joints: articulated objects; JointsAssumed of them with assumed
	// limits (no dataset).
	Joints        int `json:"joints"`
	JointsAssumed int `json:"joints_assumed"`
	// Substances present and absent; Future lists declared instances
	// that are not in the scene.
	Substances int      `json:"substances"`
	Future     []string `json:"future,omitempty"`
	// Approximate lists the instances whose records rest on an
	// approximation: ApproxBoxes their box (placement, size, the agent's),
	// ApproxJoints their joint limits, ApproxParticles their particle
	// counts (physical systems, counted in boxes).
	Approximate     []string `json:"approximate,omitempty"`
	ApproxBoxes     []string `json:"approx_boxes,omitempty"`
	ApproxJoints    []string `json:"approx_joints,omitempty"`
	ApproxParticles []string `json:"approx_particles,omitempty"`
}

// approxKind says which of an instance's records rest on an
// approximation.
type approxKind uint8

const (
	approxBox       approxKind = 1 << iota // box placement or size
	approxJoints                           // assumed joint limits
	approxParticles                        // particle counts from boxes
)

// IsApproximate reports whether an atom of the predicate over these
// instances would be decided on an approximated record: geometry on an
// approximate box, open on assumed joint limits, particle predicates on
// counts taken in boxes.
func (r *Report) IsApproximate(pred string, args []string) bool {
	in := func(list []string, names ...string) bool {
		for _, n := range names {
			i := sort.SearchStrings(list, n)
			if i < len(list) && list[i] == n {
				return true
			}
		}
		return false
	}
	switch {
	case IsGeometric(pred):
		return in(r.ApproxBoxes, args...)
	case pred == "open":
		return in(r.ApproxJoints, args...)
	case pred == "filled" || pred == "contains" || pred == "covered" || pred == "empty":
		return len(args) > 0 && in(r.ApproxParticles, args[0])
	}
	return false
}

// ReportFromMeta is the part of a conversion's Report that an episode
// written by it keeps in its header's meta: which records are
// approximate, for IsApproximate. nil when the meta records none (an
// episode not converted from OmniGibson, or one with nothing
// approximate).
func ReportFromMeta(meta json.RawMessage) *Report {
	if len(meta) == 0 {
		return nil
	}
	var m struct {
		Source          string   `json:"source"`
		Approximate     []string `json:"approximate"`
		ApproxBoxes     []string `json:"approx_boxes"`
		ApproxJoints    []string `json:"approx_joints"`
		ApproxParticles []string `json:"approx_particles"`
	}
	if json.Unmarshal(meta, &m) != nil || m.Source != "omnigibson" || len(m.Approximate) == 0 {
		return nil
	}
	r := &Report{Approximate: m.Approximate, ApproxBoxes: m.ApproxBoxes, ApproxJoints: m.ApproxJoints, ApproxParticles: m.ApproxParticles}
	for _, l := range [][]string{r.Approximate, r.ApproxBoxes, r.ApproxJoints, r.ApproxParticles} {
		sort.Strings(l)
	}
	return r
}
