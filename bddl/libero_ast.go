package bddl

// The LIBERO dialect of BDDL (`(:domain robosuite)`), read into the same
// Problem as BEHAVIOR-1K definitions: :objects, :init and :goal land in the
// usual fields, and what the dialect adds (the instruction, regions,
// fixtures, objects of interest) in Problem.Libero.
//
// Facts are from LIBERO at commit 8f1084e3132a39270c3a13ebe37270a43ece2a01
// (libero/libero/envs/bddl_utils.py, robosuite_parse_problem and
// get_regions).

// Libero is what a LIBERO problem adds to the common AST.
type Libero struct {
	// Language is the instruction: the words of (:language ...) joined by
	// one space, as bddl_utils.get_problem_info joins them.
	Language      string `json:"language"`
	LanguageRange Range  `json:"language_range"`
	// Fixtures are the type lines of :fixtures (the workspace and the
	// furniture the problem class loads).
	Fixtures []*ObjectDecl `json:"fixtures"`
	// Regions are the entries of :regions in source order.
	Regions []*Region `json:"regions"`
	// ObjOfInterest are the names of :obj_of_interest.
	ObjOfInterest []Ident `json:"obj_of_interest"`
	// Unknown are sections LIBERO prints and ignores; kept so fmt keeps them.
	Unknown []UnknownSection `json:"unknown,omitempty"`
}

// UnknownSection is a section LIBERO does not know, kept as written.
type UnknownSection struct {
	Keyword Ident  `json:"keyword"`
	Text    string `json:"text"` // the whole section as written
	Range   Range  `json:"range"`
}

// Region is one entry of :regions: rectangles on a target, in the target's
// frame, with a yaw range; or, with only :target, a site of the target's
// model. It is referred to as TARGET_NAME (get_regions keys it so).
type Region struct {
	Name   Ident `json:"name"`
	Range  Range `json:"range"`
	Target Ident `json:"target"` // zero when missing
	// Ranges are (x0 y0 x1 y1) rectangles.
	Ranges      []Rect `json:"ranges"`
	RangesRange Range  `json:"ranges_range"`
	// Yaw are (a b) yaw ranges in radians. LIBERO keeps only the last.
	Yaw      []YawRange `json:"yaw_rotation,omitempty"`
	YawRange Range      `json:"yaw_range"`
	RGBA     []Number   `json:"rgba,omitempty"`
	// Attrs records which attributes were written, in source order, as
	// their keywords (":target", ":ranges", ...), for the printer.
	Attrs []Ident `json:"attrs"`
}

// Ref is how :init and :goal refer to the region: TARGET_NAME.
func (r *Region) Ref() string { return r.Target.Key() + "_" + r.Name.Key() }

// HasRanges reports whether the region gives rectangles (else it names a
// site of its target's model).
func (r *Region) HasRanges() bool { return len(r.Ranges) > 0 }

// Rect is one (x0 y0 x1 y1) rectangle.
type Rect struct {
	V     [4]Number `json:"v"`
	Range Range     `json:"range"`
}

// YawRange is one (a b) pair.
type YawRange struct {
	V     [2]Number `json:"v"`
	Range Range     `json:"range"`
}

// Number is a number as written and its value.
type Number struct {
	Text  string  `json:"text"`
	Value float64 `json:"value"`
	Range Range   `json:"range"`
}

// Region returns the region referred to as ref (TARGET_NAME), if any.
func (l *Libero) Region(ref string) (*Region, bool) {
	ref = Fold(ref)
	for _, r := range l.Regions {
		if r.Ref() == ref {
			return r, true
		}
	}
	return nil, false
}
