package serve

import (
	"math"
	"strconv"

	"github.com/openbddl/bddl/episode"
)

// appendRecord appends r as encoding/json (no HTML escaping) writes it,
// byte for byte, for the results a session step gives most often: no
// literal lists, firings, per-step truths or statistics, and every string
// plain. ok is false for any other result, which the caller marshals
// with encoding/json. Reflection over the record was a third of the
// server's time per session.step (TestAppendRecordMatchesJSON checks the
// equality on every field).
func appendRecord(b []byte, r *episode.Result) (_ []byte, ok bool) {
	if len(r.InitFailures) > 0 || len(r.Unsatisfied) > 0 || len(r.Undetermined) > 0 || len(r.Firings) > 0 ||
		len(r.PerStep) > 0 || r.Stats != nil {
		return b, false
	}
	w := recordWriter{b: b, ok: true}
	w.str(`{"activity":`, r.Activity)
	w.str(`,"episode":`, r.Episode)
	w.boolean(`,"success":`, r.Success)
	w.float(`,"score":`, r.Score)
	w.float(`,"challenge_score":`, r.ChallengeScore)
	w.str(`,"reason":`, r.Reason)
	w.integer(`,"episode_step":`, r.EpisodeStep)
	if w.raw(`,"duration":`); r.Duration == nil {
		w.raw("null")
	} else {
		w.float("", *r.Duration)
	}
	if w.raw(`,"first_success_step":`); r.FirstSuccessStep == nil {
		w.raw("null")
	} else {
		w.integer("", *r.FirstSuccessStep)
	}
	w.boolean(`,"holds_at_end":`, r.HoldsAtEnd)
	w.str(`,"goal_at_end":`, r.GoalAtEnd.String())
	w.boolean(`,"init_ok":`, r.InitOK)
	w.str(`,"init":`, r.Init.String())
	w.integer(`,"approximate_count":`, int64(r.ApproximateCount))
	w.integer(`,"unknown_count":`, int64(r.UnknownCount))
	if r.UncertainCount != 0 {
		w.integer(`,"uncertain_count":`, int64(r.UncertainCount))
	}
	if r.SuccessApproximateCount != 0 {
		w.integer(`,"success_approximate_count":`, int64(r.SuccessApproximateCount))
	}
	w.integer(`,"steps":`, int64(r.Steps))
	w.integer(`,"unknown_steps":`, int64(r.UnknownSteps))
	w.integer(`,"skipped_steps":`, int64(r.SkippedSteps))
	w.strs(`,"skip_errors":`, r.SkipErrors)
	w.integer(`,"hold":`, int64(r.Hold))
	w.str(`,"negation":`, r.Negation)
	if r.Error != "" {
		w.str(`,"error":`, r.Error)
	}
	w.strs(`,"warnings":`, r.Warnings)
	w.strs(`,"conjuncts":`, r.Conjuncts)
	w.raw("}")
	return w.b, w.ok
}

// recordWriter appends JSON values, clearing ok on anything it does not
// write exactly as encoding/json would.
type recordWriter struct {
	b  []byte
	ok bool
}

func (w *recordWriter) raw(s string) { w.b = append(w.b, s...) }

func (w *recordWriter) boolean(key string, v bool) {
	w.b = strconv.AppendBool(append(w.b, key...), v)
}

func (w *recordWriter) integer(key string, v int64) {
	w.b = strconv.AppendInt(append(w.b, key...), v, 10)
}

// float follows encoding/json's float64 encoder: the shortest form, in
// exponent notation below 1e-6 or from 1e21, with a two-digit exponent.
func (w *recordWriter) float(key string, f float64) {
	w.b = append(w.b, key...)
	if math.IsInf(f, 0) || math.IsNaN(f) {
		w.ok = false // an error there: the caller's encoding/json reports it
		return
	}
	abs := math.Abs(f)
	if abs < 1e15 && f == math.Trunc(f) && (f != 0 || !math.Signbit(f)) {
		// A whole number (a score of 0 or 1, a step): its digits, as
		// the shortest form writes them, without the float formatting.
		w.b = strconv.AppendInt(w.b, int64(f), 10)
		return
	}
	format := byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	start := len(w.b)
	w.b = strconv.AppendFloat(w.b, f, format, -1, 64)
	if format == 'e' {
		// clean up e-09 to e-9, as encoding/json does
		if n := len(w.b) - start; n >= 4 && w.b[len(w.b)-4] == 'e' && w.b[len(w.b)-3] == '-' && w.b[len(w.b)-2] == '0' {
			w.b[len(w.b)-2] = w.b[len(w.b)-1]
			w.b = w.b[:len(w.b)-1]
		}
	}
}

// str writes a string that needs no escaping; any other clears ok.
func (w *recordWriter) str(key, s string) {
	w.b = append(append(w.b, key...), '"')
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == '"' || c == '\\' || c >= 0x7f {
			w.ok = false
			return
		}
	}
	w.b = append(append(w.b, s...), '"')
}

// strs writes a list of strings, omitted when empty (omitempty).
func (w *recordWriter) strs(key string, list []string) {
	if len(list) == 0 {
		return
	}
	w.raw(key)
	for i, s := range list {
		sep := ","
		if i == 0 {
			sep = "["
		}
		w.str(sep, s)
	}
	w.raw("]")
}
