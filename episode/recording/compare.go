package recording

import (
	"encoding/json"
	"math"
	"slices"
	"strings"
)

// Annotated is one episode's annotations, by annotator.
type Annotated struct {
	Episode     string
	Annotations []*Annotation
}

// find is the episode's annotation by an annotator; nil when none.
func (e *Annotated) find(name string) *Annotation {
	for _, a := range e.Annotations {
		if a.Annotator == name {
			return a
		}
	}
	return nil
}

// Agreement is how two annotators agree over the episodes both judged.
type Agreement struct {
	A, B string `json:"-"`
	// Episodes is the number judged by both.
	Episodes int `json:"episodes"`
	// Matrix counts the episodes by A's verdict (row) and B's (column):
	// [0] success, [1] failure.
	Matrix [2][2]int `json:"matrix"`
	// Raw is the share of episodes where they agree.
	Raw float64 `json:"raw_agreement"`
	// Kappa is Cohen's kappa, (po − pe) / (1 − pe); NaN (null in JSON)
	// when chance agreement is 1 (both gave one verdict throughout).
	Kappa         float64        `json:"-"`
	Disagreements []Disagreement `json:"disagreements"`
}

// Disagreement is an episode the two annotators judged differently.
type Disagreement struct {
	Episode  string `json:"episode"`
	ASuccess bool   `json:"a_success"`
	ADesc    string `json:"a_description"`
	BSuccess bool   `json:"b_success"`
	BDesc    string `json:"b_description"`
}

// MarshalJSON writes the annotators' names and kappa (null when
// undefined).
func (g *Agreement) MarshalJSON() ([]byte, error) {
	type plain Agreement
	var kappa *float64
	if !math.IsNaN(g.Kappa) {
		kappa = &g.Kappa
	}
	return json.Marshal(struct {
		Record string   `json:"record"`
		A      string   `json:"annotator"`
		B      string   `json:"against"`
		Kappa  *float64 `json:"kappa"`
		*plain
	}{"agreement", g.A, g.B, kappa, (*plain)(g)})
}

// Agree measures annotator a against b over the episodes.
func Agree(eps []Annotated, a, b string) *Agreement {
	g := &Agreement{A: a, B: b, Disagreements: []Disagreement{}}
	for i := range eps {
		x, y := eps[i].find(a), eps[i].find(b)
		if x == nil || y == nil {
			continue
		}
		g.Episodes++
		r, c := verdictIndex(x), verdictIndex(y)
		g.Matrix[r][c]++
		if r != c {
			g.Disagreements = append(g.Disagreements, Disagreement{Episode: eps[i].Episode,
				ASuccess: x.Succeeded(), ADesc: x.FailureDescription, BSuccess: y.Succeeded(), BDesc: y.FailureDescription})
		}
	}
	g.Raw, g.Kappa = Kappa(g.Matrix)
	return g
}

func verdictIndex(a *Annotation) int {
	if a.Succeeded() {
		return 0
	}
	return 1
}

// Kappa is the raw agreement and Cohen's kappa of a 2 × 2 confusion
// matrix; both NaN for an empty one, kappa NaN when chance agreement is 1.
func Kappa(m [2][2]int) (raw, kappa float64) {
	n := float64(m[0][0] + m[0][1] + m[1][0] + m[1][1])
	if n == 0 {
		return math.NaN(), math.NaN()
	}
	po := float64(m[0][0]+m[1][1]) / n
	pe := 0.0
	for k := range 2 {
		pe += float64(m[k][0]+m[k][1]) / n * float64(m[0][k]+m[1][k]) / n
	}
	if pe >= 1 {
		return po, math.NaN()
	}
	return po, (po - pe) / (1 - pe)
}

// IsHuman reports whether an annotation is a person's: its source says
// "human", or, with no source, its annotator's name starts with "human"
// (Dora-record's human_annotation.json).
func IsHuman(a *Annotation) bool {
	if a.Source != "" {
		return strings.EqualFold(a.Source, "human")
	}
	return strings.HasPrefix(strings.ToLower(a.Annotator), "human")
}

// Pairs are the annotator pairs to compare: annotator against each other
// annotator found, or against the one named, or with against "human"
// against every annotator whose source is "human"; sorted by name.
func Pairs(eps []Annotated, annotator, against string) [][2]string {
	others := map[string]bool{}
	for _, e := range eps {
		for _, a := range e.Annotations {
			if a.Annotator == annotator {
				continue
			}
			switch against {
			case "":
				others[a.Annotator] = true
			case "human":
				if IsHuman(a) {
					others[a.Annotator] = true
				}
			default:
				if a.Annotator == against {
					others[a.Annotator] = true
				}
			}
		}
	}
	var out [][2]string
	for o := range others {
		out = append(out, [2]string{annotator, o})
	}
	slices.SortFunc(out, func(x, y [2]string) int { return strings.Compare(x[1], y[1]) })
	return out
}
