package predicates

import (
	"fmt"
	"strconv"
	"strings"
)

// Temperature predicates (SEMANTICS.md B §1.4.3). cooked and burnt read
// the maximum temperature ever reached, because cooking is irreversible;
// frozen, hot and on_fire read the current temperature. Thresholds are
// per synset from the knowledge base, with the reference defaults.

func registerTemperature() {
	register(predCooked, predicate{name: "cooked", arity: 1, domains: inOmniGibson | inIGibson,
		rule: maxTempAtLeast(func(t *thresholds) float64 { return t.cook }), detail: tempDetail("max_temperature", ">=", "cook_temperature", func(t *thresholds) float64 { return t.cook }),
		doc: "max_temperature ≥ cook_temperature (default 70 °C)"})
	register(predBurnt, predicate{name: "burnt", arity: 1, domains: inIGibson,
		rule: maxTempAtLeast(func(t *thresholds) float64 { return t.burn }), detail: tempDetail("max_temperature", ">=", "burn_temperature", func(t *thresholds) float64 { return t.burn }),
		doc: "max_temperature ≥ burn_temperature (default 200 °C)"})
	register(predFrozen, predicate{name: "frozen", arity: 1, domains: inOmniGibson | inIGibson,
		rule: ruleFrozen, detail: tempDetail("temperature", "<=", "freeze_temperature", func(t *thresholds) float64 { return t.freeze }),
		doc: "temperature ≤ freeze_temperature (default 0 °C)"})
	register(predHot, predicate{name: "hot", arity: 1, domains: inOmniGibson,
		rule: tempAtLeast(func(t *thresholds) float64 { return t.heat }), detail: tempDetail("temperature", ">=", "heat_temperature", func(t *thresholds) float64 { return t.heat }),
		doc: "temperature ≥ heat_temperature (default 40 °C)"})
	register(predOnFire, predicate{name: "on_fire", arity: 1, domains: inOmniGibson,
		rule: tempAtLeast(func(t *thresholds) float64 { return t.ignition }), detail: tempDetail("temperature", ">=", "ignition_temperature", func(t *thresholds) float64 { return t.ignition }),
		doc: "temperature ≥ ignition_temperature (default 250 °C)"})
}

func maxTempAtLeast(thr func(*thresholds) float64) ruleFunc {
	return func(p *Program, s *State, a, _ ObjectID) (Truth, Source) {
		o := &s.obj[a]
		if o.has&FieldMaxTemperature == 0 {
			return Unknown, SourceMissing
		}
		return TruthOf(o.maxTemp >= thr(&p.objs[a].thr)), SourceQuantity
	}
}

func tempAtLeast(thr func(*thresholds) float64) ruleFunc {
	return func(p *Program, s *State, a, _ ObjectID) (Truth, Source) {
		o := &s.obj[a]
		if o.has&FieldTemperature == 0 {
			return Unknown, SourceMissing
		}
		return TruthOf(o.temp >= thr(&p.objs[a].thr)), SourceQuantity
	}
}

func ruleFrozen(p *Program, s *State, a, _ ObjectID) (Truth, Source) {
	o := &s.obj[a]
	if o.has&FieldTemperature == 0 {
		return Unknown, SourceMissing
	}
	return TruthOf(o.temp <= p.objs[a].thr.freeze), SourceQuantity
}

// tempDetail explains a temperature decision: "max_temperature 41.0 < 70
// (cook_temperature of sugar_cookie.n.01)".
func tempDetail(quantity, holds, param string, thr func(*thresholds) float64) detailFunc {
	return func(p *Program, s *State, a, _ ObjectID) string {
		o := &s.obj[a]
		field, v := FieldTemperature, o.temp
		if quantity == "max_temperature" {
			field, v = FieldMaxTemperature, o.maxTemp
		}
		if o.has&field == 0 {
			return "missing " + quantity
		}
		t := thr(&p.objs[a].thr)
		ok := v >= t
		if holds == "<=" {
			ok = v <= t
		}
		op := holds
		if !ok {
			op = map[string]string{">=": "<", "<=": ">"}[holds]
		}
		return fmt.Sprintf("%s %s %s %s (%s)", quantity, fmtMeasured(v), op, fmtParam(t), p.thresholdOrigin(a, param))
	}
}

// fmtMeasured prints a recorded quantity with at least one decimal, as
// measurements are written: 41.0, 23.25.
func fmtMeasured(v float64) string {
	t := strconv.FormatFloat(v, 'f', -1, 64)
	if !strings.ContainsAny(t, ".eEN") {
		t += ".0"
	}
	return t
}

// fmtParam prints a parameter as short as it is: 70, 0.2.
func fmtParam(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
