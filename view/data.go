package view

// MaxFrames bounds the frames a page holds by default: a longer episode
// is shown every k-th step (and its last), so the page stays small.
const MaxFrames = 600

// Data is what the page draws, as JSON inside it.
type Data struct {
	Activity string   `json:"activity"`
	Episode  string   `json:"episode"`
	Objects  []Object `json:"objects"`
	// Furniture are scene objects the episode does not record, drawn
	// under its objects (from a scene file, or the knowledge-base scene
	// a sample was laid out in).
	Furniture []Shape `json:"furniture,omitempty"`
	// Rooms are the rooms' floor rectangles [x0, y0, x1, y1] when a
	// scene gives them; else the page draws each room around its objects.
	Rooms     []Room    `json:"rooms,omitempty"`
	Frames    []Frame   `json:"frames"`
	Conjuncts []Literal `json:"conjuncts"`
	Init      []Literal `json:"init"`
	Report    string    `json:"report"`
	// Verdict is the report's first word; for a sampled scene it is the
	// truth of :init, which is what a sample promises.
	Verdict string `json:"verdict"`
	Sample  bool   `json:"sample,omitempty"`
	Steps   int    `json:"steps"`
}

// Object is one object the episode records. Role is agent, container,
// support, task (the definition's other objects) or scene (recorded but
// not in the definition).
type Object struct {
	Name string `json:"name"`
	Room string `json:"room,omitempty"`
	Role string `json:"role"`
}

// Shape is a box drawn as is: 6 numbers (an axis-aligned box, min then
// max) or 24 (the 8 corners of an oriented box).
type Shape struct {
	Name string    `json:"name"`
	Room string    `json:"room,omitempty"`
	Box  []float64 `json:"box"`
	// Wall marks a wall, left out of the side view, which it would hide.
	Wall bool `json:"wall,omitempty"`
}

// Room is a room's floor rectangle [x0, y0, x1, y1].
type Room struct {
	Name  string     `json:"name"`
	Floor [4]float64 `json:"floor"`
}

// Literal is a literal of :init or a top-level conjunct of the goal,
// with the objects it names (indices into Objects; a quantified
// conjunct names every object of its types).
type Literal struct {
	Text    string `json:"text"`
	Objects []int  `json:"objects"`
}

// Frame is one shown step: each object's box (null when it has none or
// does not exist), the goal's and each conjunct's truth.
type Frame struct {
	Step  int64       `json:"step"`
	Boxes [][]float64 `json:"boxes"`
	Truth []string    `json:"truth,omitempty"` // goal, then conjuncts
}

// Drawn is the number of objects with a box at the first shown step.
func (d *Data) Drawn() int {
	n := 0
	if len(d.Frames) == 0 {
		return 0
	}
	for _, b := range d.Frames[0].Boxes {
		if b != nil {
			n++
		}
	}
	return n
}
