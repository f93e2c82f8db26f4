package omnigibson

import (
	"fmt"

	"github.com/openbddl/bddl/episode"
)

// assumedRange is the range assumed for a joint without limits (radians
// or metres; the files say neither the limits nor the joint's type),
// opening away from 0 in the direction the joint stands. Models are closed
// at 0, and the simulator samples an open joint at least 5 % of its range
// past that (OmniGibson, object_states/open_state.py): 5 % of this range,
// 0.02, lies below that for revolute joints (ranges of a radian or more)
// and for drawers of 0.4 m or more, and far above the numerical noise of
// a closed joint. A closed joint the sampler resampled can sit up to 5 %
// of its range from 0 and may then read as open: that is the
// approximation.
const assumedRange = 0.4

// joints turns joint positions into joint records: with the dataset's
// limits and openable annotation when it has them, else with assumed
// limits (closed at 0, assumedRange of range).
func (c *Converter) joints(it *sceneItem, q []float64) []episode.Joint {
	out := make([]episode.Joint, 0, len(q))
	if m := it.meta; m != nil && len(m.Joints) == len(q) {
		if len(m.Openable) > 0 {
			for _, oj := range m.Openable {
				if oj.Index < len(q) {
					j := m.Joints[oj.Index]
					out = append(out, episode.Joint{Name: j.Name, Q: q[oj.Index], Lo: j.Lo, Hi: j.Hi, Dir: oj.Dir})
				}
			}
			if len(out) > 0 {
				return out
			}
		}
		for i, j := range m.Joints {
			out = append(out, episode.Joint{Name: j.Name, Q: q[i], Lo: j.Lo, Hi: j.Hi, Dir: 1})
		}
		return out
	}
	for i, v := range q {
		j := episode.Joint{Name: fmt.Sprintf("joint_%d", i), Q: v, Lo: 0, Hi: max(assumedRange, v), Dir: 1}
		if v < 0 {
			j.Lo, j.Hi, j.Dir = min(-assumedRange, v), 0, -1
		}
		out = append(out, j)
	}
	return out
}
