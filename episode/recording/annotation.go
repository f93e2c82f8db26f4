package recording

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/episode"
	"github.com/openbddl/bddl/predicates"
)

// Annotation is one annotator's verdict on an episode, with Oopsie's
// field names: an episode_annotations/<annotator>/ group's attributes, or
// the JSON object of a Dora-record <annotator>_annotation.json.
type Annotation struct {
	// Annotator is the group's (or file's) name; not a field.
	Annotator string `json:"-"`
	Source    string `json:"source"`
	Timestamp string `json:"timestamp"`
	// Success is 1 for a success, 0 for a failure.
	Success            float64 `json:"success"`
	FailureDescription string  `json:"failure_description"`
	// Taxonomy is JSON text: {"failure_category": …, "severity": …}.
	Taxonomy        string `json:"taxonomy"`
	AdditionalNotes string `json:"additional_notes,omitempty"`
}

// Succeeded reports the annotator's verdict (success ≥ 0.5).
func (a *Annotation) Succeeded() bool { return a.Success >= 0.5 }

// The failure categories of BDDL verdicts.
const (
	CategoryNone         = "none"
	CategoryGoal         = "goal-not-reached"
	CategoryInit         = "init-not-satisfied"
	CategoryUndetermined = "undetermined"
)

// Taxonomy is the taxonomy field's content.
type Taxonomy struct {
	FailureCategory string `json:"failure_category"`
	// Severity is how far the goal was from holding: 1 − the goal's
	// score at the last step (0 on success, 1 when undetermined).
	Severity float64 `json:"severity"`
}

// Verdict turns a check result into the annotation BDDL writes.
// failure_description is the first goal literal that does not hold at
// the end, in words (the first :init literal that did not hold when the
// initial state was wrong; the first undetermined one, or the error, when
// the goal is undetermined).
func Verdict(res *episode.Result, annotator string, now time.Time) Annotation {
	a := Annotation{Annotator: annotator, Source: "bddl", Timestamp: now.UTC().Format(time.RFC3339)}
	tax := Taxonomy{FailureCategory: CategoryNone}
	switch {
	case res.Success:
		a.Success = 1
	case res.Error != "":
		tax = Taxonomy{CategoryUndetermined, 1}
		a.FailureDescription = "the recording could not be checked: " + res.Error
	case res.Init == predicates.False:
		tax = Taxonomy{CategoryInit, clamp01(1 - res.Score)}
		a.FailureDescription = "initially, " + firstWords(res.InitFailures)
	case len(res.Unsatisfied) > 0:
		tax = Taxonomy{CategoryGoal, clamp01(1 - res.Score)}
		a.FailureDescription = firstWords(res.Unsatisfied)
	case res.GoalAtEnd == predicates.Unknown:
		tax = Taxonomy{CategoryUndetermined, 1}
		a.FailureDescription = "undetermined: " + res.Reason
		if len(res.Undetermined) > 0 {
			a.FailureDescription = "undetermined whether " + LiteralWords(res.Undetermined[0].Ground)
		}
	default:
		tax = Taxonomy{CategoryGoal, clamp01(1 - res.Score)}
		a.FailureDescription = "the goal did not hold as required: " + res.Reason
	}
	tj, _ := json.Marshal(tax)
	a.Taxonomy = string(tj)
	return a
}

func clamp01(v float64) float64 { return min(1, max(0, v)) }

// firstWords says in words that the first literal does not hold.
func firstWords(ls []episode.Literal) string {
	if len(ls) == 0 {
		return ""
	}
	g := strings.TrimSpace(ls[0].Ground)
	if inner, ok := strings.CutPrefix(g, "(not "); ok && strings.HasSuffix(inner, ")") {
		return LiteralWords(strings.TrimSuffix(inner, ")"))
	}
	return LiteralWords("(not " + g + ")")
}

// LiteralWords renders a ground literal, "(not (ontop apple.n.01_1
// table.n.02_1))", in words (bddl.Explain). Text that does not parse is
// returned as it is.
func LiteralWords(ground string) string {
	src := "(define (problem p) (:domain omnigibson) (:objects) (:init) (:goal (and " + ground + ")))"
	p, diags := bddl.ParseProblem("literal", []byte(src))
	if diags.Err() != nil || p == nil {
		return ground
	}
	and, ok := p.Goal.(*bddl.And)
	if !ok || len(and.Xs) != 1 {
		return ground
	}
	return bddl.Explain(and.Xs[0])
}

// ParseTaxonomy reads a taxonomy field; zero when it is not JSON.
func ParseTaxonomy(s string) Taxonomy {
	var raw struct {
		FailureCategory string `json:"failure_category"`
		Severity        any    `json:"severity"`
	}
	if json.Unmarshal([]byte(s), &raw) != nil {
		return Taxonomy{}
	}
	t := Taxonomy{FailureCategory: raw.FailureCategory}
	if f, ok := raw.Severity.(float64); ok {
		t.Severity = f
	}
	return t
}

// MarshalFile is the JSON of a Dora-record annotation file.
func (a *Annotation) MarshalFile() []byte {
	b, _ := json.MarshalIndent(a, "", "  ")
	return append(b, '\n')
}

// ParseAnnotationFile reads a Dora-record annotation file; taxonomy may
// be JSON text or an object.
func ParseAnnotationFile(name string, data []byte) (*Annotation, error) {
	var raw struct {
		Source             string          `json:"source"`
		Timestamp          any             `json:"timestamp"`
		Success            any             `json:"success"`
		FailureDescription string          `json:"failure_description"`
		Taxonomy           json.RawMessage `json:"taxonomy"`
		AdditionalNotes    string          `json:"additional_notes"`
	}
	// JSON is UTF-8 (RFC 8259); encoding/json would replace a bad byte
	// with U+FFFD, so what is written back would not be what was read.
	if !utf8.Valid(data) {
		return nil, fmt.Errorf("%s: not UTF-8 text, as JSON must be", name)
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	a := &Annotation{Source: raw.Source, FailureDescription: raw.FailureDescription, AdditionalNotes: raw.AdditionalNotes}
	switch v := raw.Success.(type) {
	case float64:
		a.Success = v
	case bool:
		if v {
			a.Success = 1
		}
	case string:
		switch f, err := strconv.ParseFloat(strings.TrimSpace(v), 64); {
		case err == nil && !math.IsNaN(f) && !math.IsInf(f, 0):
			a.Success = f
		case strings.EqualFold(v, "true") || strings.EqualFold(v, "success"):
			a.Success = 1
		case strings.EqualFold(v, "false") || strings.EqualFold(v, "failure"):
		default:
			return nil, fmt.Errorf("%s: success: expected 1.0 or 0.0", name)
		}
	default:
		return nil, fmt.Errorf("%s: success: expected 1.0 or 0.0", name)
	}
	if raw.Timestamp != nil {
		a.Timestamp = strings.Trim(fmt.Sprint(raw.Timestamp), `"`)
	}
	if len(raw.Taxonomy) > 0 {
		var s string
		if json.Unmarshal(raw.Taxonomy, &s) == nil {
			a.Taxonomy = s
		} else {
			a.Taxonomy = string(raw.Taxonomy)
		}
	}
	return a, nil
}
