package sampler

import (
	"math"
	"testing"

	"github.com/openbddl/bddl/kb"
)

// FuzzParseTemplate: any scene file gives a scene with finite boxes and
// rooms, or an error; never a panic.
func FuzzParseTemplate(f *testing.F) {
	f.Add([]byte(`{"objects_info":{"init_info":{"floors_a_0":{"args":{"category":"floors","model":"hqgbxe","scale":[1,1,1],"in_rooms":["kitchen_0"]}}}},"state":{"registry":{"object_registry":{"floors_a_0":{"root_link":{"pos":[0,0,0],"ori":[0,0,0,1]}}}}}}`))
	f.Add([]byte(`{"objects_info":{"init_info":{"x":{"args":{"category":"countertop","model":"kzpbrq","in_rooms":"kitchen_0"}}}},"state":{"registry":{"object_registry":{"x":{"root_link":{"pos":[1,2,0.4],"ori":[0,0,0.7,0.7]}}}}}}`))
	f.Add([]byte(`{"objects_info":{"init_info":{"x":{"args":{"in_rooms":["a_0"]}}}},"state":{}}`))
	f.Add([]byte(`[]`))
	base := kb.Default()
	f.Fuzz(func(t *testing.T, data []byte) {
		sc, err := ParseTemplate(base, "fuzz_task_x_template-partial_rooms.json", data)
		if err != nil {
			return
		}
		for _, r := range sc.Rooms {
			for k := 0; k < 3; k++ {
				if math.IsNaN(r.Floor.Min[k]) || math.IsNaN(r.Floor.Max[k]) || r.Floor.Min[k] > r.Floor.Max[k] {
					t.Fatalf("room %s has floor %v", r.Name, r.Floor)
				}
			}
			for _, o := range r.Objects {
				for k := 0; k < 3; k++ {
					if math.IsNaN(o.Box.Min[k]) || o.Box.Min[k] > o.Box.Max[k] {
						t.Fatalf("object %s has box %v", o.Name, o.Box)
					}
				}
			}
		}
	})
}
