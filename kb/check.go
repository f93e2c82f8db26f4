package kb

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
)

// Check validates the loaded data and returns every finding, sorted by
// location: the data errors of the load, the load's warnings (propagation
// mismatches, synsets.csv disagreements, ...), consistency checks on the
// taxonomy and parameters, and the scene and model data (which it loads).
// A knowledge base fit for use has no SeverityError finding. The checks of
// the transition rules themselves (leaf synsets, applicable states, unique
// names, clashes) belong to package activities (activities.CheckKB), which
// shares the applicability table with the activity rules; `bddl kb check`
// runs both.
func (b *Base) Check() []Finding {
	var out []Finding
	for _, e := range b.loadErrs {
		out = append(out, Finding{Severity: SeverityError, Code: e.Code, Location: e.Location, Message: e.Message})
	}
	out = append(out, b.findings...)
	out = append(out, b.checkTaxonomy()...)
	out = append(out, b.checkParams()...)
	out = append(out, b.checkSubstanceCooking()...)
	b.world()
	for _, e := range b.worldProb.errs {
		out = append(out, Finding{Severity: SeverityError, Code: e.Code, Location: e.Location, Message: e.Message})
	}
	out = append(out, b.worldProb.findings...)
	out = append(out, b.checkWorld()...)
	if b.extraChecks != nil {
		out = append(out, b.extraChecks(b)...)
	}
	SortFindings(out)
	return out
}

// SortFindings orders findings by file, line, key, code and message.
func SortFindings(fs []Finding) {
	sort.SliceStable(fs, func(i, j int) bool {
		a, c := fs[i], fs[j]
		switch {
		case a.Location.File != c.Location.File:
			return a.Location.File < c.Location.File
		case a.Location.Line != c.Location.Line:
			return a.Location.Line < c.Location.Line
		case a.Location.Key != c.Location.Key:
			return a.Location.Key < c.Location.Key
		case a.Code != c.Code:
			return a.Code < c.Code
		}
		return a.Message < c.Message
	})
}

// CountBySeverity tallies findings.
func CountBySeverity(fs []Finding) map[Severity]int {
	m := map[Severity]int{}
	for _, f := range fs {
		m[f.Severity]++
	}
	return m
}

var synsetNameRE = regexp.MustCompile(`^[a-z0-9_'\-]+(\.[a-z0-9_'\-]+)*\.[nvasr]\.[0-9]+$`)

func (b *Base) loc(id SynsetID) Location {
	return Location{File: b.dataFile(), Key: b.names[id]}
}

func (b *Base) dataFile() string {
	switch {
	case b.origin.Format == "behavior1k":
		return fileParams
	case b.origin.Path == embeddedPath:
		return "default.yaml"
	}
	return filepath.Base(b.origin.Path)
}

func (b *Base) checkTaxonomy() []Finding {
	var out []Finding
	if roots := b.Roots(); len(roots) > 1 {
		names := b.Names(roots)
		sort.Strings(names)
		if len(names) > 8 {
			names = append(names[:8], "...")
		}
		out = append(out, Finding{Severity: SeverityWarning, Code: "many-roots", Location: Location{File: b.dataFile()},
			Message: fmt.Sprintf("%d synsets have no hypernym: %s", len(roots), strings.Join(names, ", "))})
	}
	for i, name := range b.names {
		id := SynsetID(i)
		if !synsetNameRE.MatchString(name) {
			out = append(out, Finding{Severity: SeverityWarning, Code: "name-format", Location: b.loc(id),
				Message: fmt.Sprintf("synset name %q is not of the form lemma.n.NN", name)})
		}
		if !b.IsLeaf(id) {
			continue
		}
		var types []string
		for _, p := range objectTypeProperties {
			if b.Has(id, p) {
				types = append(types, p.String())
			}
		}
		switch {
		case len(types) == 0:
			out = append(out, Finding{Severity: SeverityWarning, Code: "no-object-type", Location: b.loc(id),
				Message: fmt.Sprintf("leaf synset %s has no object type (one of %s)", name, strings.Join(ObjectTypeNames(), ", "))})
		case len(types) > 1:
			out = append(out, Finding{Severity: SeverityError, Code: "object-types", Location: b.loc(id),
				Message: fmt.Sprintf("leaf synset %s has several object types: %s", name, strings.Join(types, ", "))})
		}
		if b.Has(id, Substance) && b.Has(id, NonSubstance) {
			out = append(out, Finding{Severity: SeverityError, Code: "substance-and-not", Location: b.loc(id),
				Message: fmt.Sprintf("leaf synset %s is both a substance and a nonSubstance", name)})
		}
	}
	return out
}

// derivativeParams are the parameters without which a property cannot
// produce its transition.
var derivativeParams = []struct {
	prop  Property
	param string
}{
	{Sliceable, "sliceable_derivative_synset"},
	{Diceable, "uncooked_diceable_derivative_synset"},
	{Meltable, "meltable_derivative_synset"},
}

// defaultedParams are parameters whose absence the engine covers with a
// default (info) or cannot cover (warning).
var defaultedParams = []struct {
	prop        Property
	param       string
	severity    Severity
	consequence string
}{
	{Cookable, "cook_temperature", SeverityInfo, "the default 70 °C applies"},
	{Flammable, "ignition_temperature", SeverityInfo, "the default 250 °C applies"},
	{HeatSource, "temperature", SeverityInfo, "the default 200 °C applies"},
	{ColdSource, "temperature", SeverityWarning, "the heat-source default of 200 °C would apply"},
	{ParticleRemover, "conditions", SeverityWarning, "it removes nothing"},
	{ParticleApplier, "conditions", SeverityWarning, "it applies nothing"},
	{ParticleSource, "conditions", SeverityWarning, "it emits nothing"},
}

func (b *Base) checkParams() []Finding {
	var out []Finding
	// A parameter the engine can default is worth a note only where its
	// absence is unusual: when most leaves with the property give it.
	usual := map[Property]bool{}
	for _, dp := range defaultedParams {
		with, total := 0, 0
		for i := range b.names {
			id := SynsetID(i)
			if b.IsLeaf(id) && b.Has(id, dp.prop) {
				total++
				if _, ok := b.Param(id, dp.prop, dp.param); ok {
					with++
				}
			}
		}
		usual[dp.prop] = dp.severity != SeverityInfo || with*10 >= total*9
	}
	for i, name := range b.names {
		id := SynsetID(i)
		leaf := b.IsLeaf(id)
		// YAML passes parameters down the hierarchy on purpose; in
		// BEHAVIOR-1K data, where non-leaf synsets get only properties,
		// parameters on one are an anomaly.
		if !leaf && len(b.params[id]) > 0 && b.origin.Format == "behavior1k" {
			var ps []string
			for _, pp := range b.params[id] {
				ps = append(ps, b.PropertyName(pp.prop))
			}
			out = append(out, Finding{Severity: SeverityInfo, Code: "nonleaf-params", Location: b.loc(id),
				Message: fmt.Sprintf("non-leaf synset %s carries parameters for %s; no transition rule is derived from them",
					name, strings.Join(ps, ", "))})
		}
		if !leaf {
			continue
		}
		for _, dp := range derivativeParams {
			if b.Has(id, dp.prop) {
				if _, ok := b.Param(id, dp.prop, dp.param); !ok {
					out = append(out, Finding{Severity: SeverityWarning, Code: "missing-param", Location: b.loc(id),
						Message: fmt.Sprintf("%s is %s but has no %s, so it cannot be transformed", name, dp.prop, dp.param)})
				}
			}
		}
		for _, dp := range defaultedParams {
			if usual[dp.prop] && b.Has(id, dp.prop) {
				if _, ok := b.Param(id, dp.prop, dp.param); !ok {
					out = append(out, Finding{Severity: dp.severity, Code: "missing-param", Location: b.loc(id),
						Message: fmt.Sprintf("%s is %s but has no %s; %s", name, dp.prop, dp.param, dp.consequence)})
				}
			}
		}
		for _, pp := range b.params[id] {
			if !b.Has(id, pp.prop) {
				out = append(out, Finding{Severity: SeverityWarning, Code: "params-without-property", Location: b.loc(id),
					Message: fmt.Sprintf("%s has parameters for %s but not the property", name, b.PropertyName(pp.prop))})
			}
			for _, prm := range pp.params {
				if prm.Value.Kind == KindSynset && !b.IsLeaf(prm.Value.Synset) {
					out = append(out, Finding{Severity: SeverityWarning, Code: "nonleaf-derivative", Location: b.loc(id),
						Message: fmt.Sprintf("%s.%s of %s names non-leaf synset %s", b.PropertyName(pp.prop), prm.Name, name, prm.Value.Text)})
				}
			}
		}
	}
	return out
}

// checkSubstanceCooking compares the cookable substances' derivative
// parameters with the substance-cooking rules: both say what a cooked
// substance becomes, and they should agree.
func (b *Base) checkSubstanceCooking() []Finding {
	var out []Finding
	ruleOut := map[SynsetID][]SynsetID{}
	ruleAt := map[SynsetID]Location{}
	cookedWater := b.ID("cooked__water.n.01")
	for _, r := range b.rules {
		if r.Kind != RuleSubstanceCooking && r.Kind != RuleSubstanceWaterCooking {
			continue
		}
		for _, in := range r.Inputs {
			if in.Synset == cookedWater && len(r.Inputs) > 1 {
				continue // the cooking medium, not what is cooked
			}
			for _, o := range r.Outputs {
				ruleOut[in.Synset] = append(ruleOut[in.Synset], o.Synset)
			}
			ruleAt[in.Synset] = r.Location
		}
	}
	for i, name := range b.names {
		id := SynsetID(i)
		if !b.IsLeaf(id) {
			continue
		}
		to, hasParam := b.CooksInto(id)
		outs, hasRule := ruleOut[id]
		switch {
		case hasParam && !hasRule && b.Has(id, Substance):
			out = append(out, Finding{Severity: SeverityWarning, Code: "cooking-rule-missing", Location: b.loc(id),
				Message: fmt.Sprintf("%s cooks into %s by its parameters, but no substance-cooking rule does it", name, b.names[to])})
		case hasRule && !hasParam:
			out = append(out, Finding{Severity: SeverityWarning, Code: "cooking-param-missing", Location: ruleAt[id],
				Message: fmt.Sprintf("a substance-cooking rule cooks %s, which has no cookable.substance_cooking_derivative_synset", name)})
		case hasRule && hasParam:
			agree := false
			for _, o := range outs {
				agree = agree || o == to
			}
			if !agree {
				out = append(out, Finding{Severity: SeverityWarning, Code: "cooking-mismatch", Location: ruleAt[id],
					Message: fmt.Sprintf("%s cooks into %s by its parameters but into %s by its rule", name, b.names[to], strings.Join(b.Names(outs), ", "))})
			}
		}
	}
	return out
}

func (b *Base) checkWorld() []Finding {
	var out []Finding
	w := b.world()
	unmapped := map[string]int{}
	missingModel := map[string]int{}
	for _, s := range w.scenes {
		for _, r := range s.Rooms {
			if len(b.roomTypeSet) > 0 && !b.IsRoomType(r.Type) {
				out = append(out, Finding{Severity: SeverityWarning, Code: "unknown-room-type",
					Location: Location{File: b.sceneFile(), Key: keyPath(s.Name, r.Name)},
					Message:  fmt.Sprintf("room %s of scene %s has type %s, which is not an allowed room type", r.Name, s.Name, r.Type)})
			}
			for _, o := range r.Objects {
				if _, ok := w.catSynset[o.Category]; !ok {
					unmapped[o.Category]++
				}
				if len(w.modelIdx) > 0 {
					if _, ok := w.modelIdx[o.Model]; !ok {
						missingModel[o.Model]++
					}
				}
			}
		}
	}
	for _, cat := range slices.Sorted(maps.Keys(unmapped)) {
		out = append(out, Finding{Severity: SeverityWarning, Code: "unmapped-category",
			Location: Location{File: b.sceneFile(), Key: cat},
			Message:  fmt.Sprintf("scenes use category %s (%d placements) but no synset maps to it", cat, unmapped[cat])})
	}
	for _, m := range slices.Sorted(maps.Keys(missingModel)) {
		out = append(out, Finding{Severity: SeverityWarning, Code: "unknown-model",
			Location: Location{File: b.sceneFile(), Key: m},
			Message:  fmt.Sprintf("scenes place model %s, which the object inventory does not list", m)})
	}
	return out
}

func (b *Base) sceneFile() string {
	if b.origin.Format == "behavior1k" {
		return fileScenes
	}
	return b.dataFile()
}

// b1kChecks are the checks that need BEHAVIOR-1K files beyond those loaded:
// the canonical property file, the slicing, dicing and melting files the
// engine derives instead of reading, and rule files it ignores.
func b1kChecks(dir string, b *Base) []Finding {
	var p problems
	b1kCheckCanonical(dir, b, &p)
	rulesDir := filepath.Join(dir, dirRules)
	entries, _ := os.ReadDir(rulesDir)
	for _, e := range entries {
		name := e.Name()
		stem := strings.TrimSuffix(name, ".json")
		if e.IsDir() || stem == name || ruleKindByFile[stem] != 0 {
			continue
		}
		data, err := readRegular(filepath.Join(rulesDir, name), maxDataFile)
		if err != nil {
			p.errorf(Location{File: name}, "missing-file", "cannot read: %v", err)
			continue
		}
		data = stripBOM(data)
		s := &jsonScanner{data: data}
		g := s.value(0)
		s.end()
		s.report(&p, name)
		if s.failed {
			continue
		}
		dec := ruleDecoder{src: source{file: name, data: data}, lookup: b.Lookup, p: &p}
		var kind RuleKind
		switch stem {
		case "slicing":
			kind = RuleSlicing
		case "dicing":
			kind = RuleDicing
		case "melting":
			kind = RuleMelting
		}
		var quiet problems // the file's own warnings (no outputs etc.) are noise here
		dec.p = &quiet
		rules := dec.recipes(kind, g)
		p.errs = append(p.errs, quiet.errs...)
		if kind != 0 {
			compareDerived(name, kind, rules, b, &p)
		}
	}
	out := p.findings
	for _, e := range p.errs {
		out = append(out, Finding{Severity: SeverityError, Code: e.Code, Location: e.Location, Message: e.Message})
	}
	return out
}

// compareDerived reports differences between a rule file and the rules the
// engine derived from parameters.
func compareDerived(file string, kind RuleKind, fromFile []Rule, b *Base, p *problems) {
	sig := func(r Rule) string {
		var parts []string
		for _, c := range r.Inputs {
			parts = append(parts, fmt.Sprintf("%s×%d", c.Name, c.Count))
		}
		for _, s := range r.InputStates {
			parts = append(parts, s.String())
		}
		parts = append(parts, "→")
		for _, c := range r.Outputs {
			parts = append(parts, c.Name)
		}
		return strings.Join(parts, " ")
	}
	derived := map[string]bool{}
	for _, r := range b.RulesOfKind(kind) {
		derived[sig(r)] = true
	}
	inFile := map[string]bool{}
	for _, r := range fromFile {
		s := sig(r)
		inFile[s] = true
		if !derived[s] {
			p.notef(SeverityWarning, Location{File: file, Key: r.Name}, "derived-rule-mismatch",
				"%s rule %q (%s) does not follow from the %s parameters", kind, r.Name, s, kindProperty(kind))
		}
	}
	for _, r := range b.RulesOfKind(kind) {
		if s := sig(r); !inFile[s] {
			p.notef(SeverityInfo, Location{File: file, Key: r.Name}, "derived-rule-extra",
				"the %s parameters give rule %q (%s), which %s does not list", kindProperty(kind), r.Name, s, file)
		}
	}
}

func kindProperty(k RuleKind) Property {
	switch k {
	case RuleSlicing:
		return Sliceable
	case RuleDicing:
		return Diceable
	}
	return Meltable
}

// b1kCheckCanonical compares propagated_annots_canonical.json with the
// loaded properties.
func b1kCheckCanonical(dir string, b *Base, p *problems) {
	data, err := readRegular(filepath.Join(dir, fileCanonical), maxDataFile)
	if errors.Is(err, fs.ErrNotExist) {
		return
	}
	if err != nil {
		p.errorf(Location{File: fileCanonical}, "missing-file", "cannot read: %v", err)
		return
	}
	data = stripBOM(data)
	s := &jsonScanner{data: data}
	if !s.open('{') {
		s.report(p, fileCanonical)
		return
	}
	first := true
	for s.more(&first, '}') {
		name := string(s.key())
		id, ok := b.Lookup(name)
		if !ok {
			p.errorf(Location{File: fileCanonical, Key: name}, "unknown-synset", "%s is not in %s", name, fileHierarchy)
			s.skip(1)
			continue
		}
		var got []Property
		if !s.open('{') {
			break
		}
		pf := true
		for s.more(&pf, '}') {
			prop, ok := b.PropertyByName(string(s.key()))
			s.skip(2)
			if ok {
				got = append(got, prop)
			} else {
				p.notef(SeverityWarning, Location{File: fileCanonical, Key: name}, "canonical-mismatch",
					"%s has a property unknown to %s", name, fileParams)
			}
		}
		want := map[Property]bool{}
		for _, pr := range got {
			want[pr] = true
			if !b.Has(id, pr) {
				p.notef(SeverityWarning, Location{File: fileCanonical, Key: name}, "canonical-mismatch",
					"%s gives %s %s, which %s does not", fileCanonical, name, b.PropertyName(pr), fileParams)
			}
		}
		for _, info := range b.Properties(id) {
			if !want[info.Property] {
				p.notef(SeverityWarning, Location{File: fileCanonical, Key: name}, "canonical-mismatch",
					"%s gives %s %s, which %s does not", fileParams, name, info.Name, fileCanonical)
			}
		}
	}
	s.report(p, fileCanonical)
}
