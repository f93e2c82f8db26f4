package serve

import (
	"bytes"
	"encoding/json"
	"errors"

	"github.com/openbddl/bddl/activities"
	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/internal/fsutil"
	"github.com/openbddl/bddl/internal/jobs/batch"
	"github.com/openbddl/bddl/kb"
)

// The methods of bddl serve on definitions and the knowledge base:
// validate, explain and kb.show, each the record of its command's
// --format json.

func init() {
	serveMethods["validate"] = serveValidate
	serveMethods["explain"] = serveExplain
	serveMethods["kb.show"] = serveKBShow
}

// definitionParams name a definition: its text (with a name for
// positions), a path, or an activity in the examples or a library.
type definitionParams struct {
	Text       string `json:"text"`
	Name       string `json:"name"`
	Path       string `json:"path"`
	Activity   string `json:"activity"`
	Activities string `json:"activities"`
	KB         string `json:"kb"`
}

// source returns the definition's file name and text.
func (p *definitionParams) source() (string, []byte, *serveError) {
	switch {
	case p.Text != "":
		name := p.Name
		if name == "" {
			name = "definition.bddl"
		}
		return name, []byte(p.Text), nil
	case p.Path != "":
		src, err := fsutil.ReadFile(p.Path, fsutil.DefinitionLimit)
		if err != nil {
			return "", nil, errorf(codeNotFound, "%v", err)
		}
		return p.Path, src, nil
	case p.Activity != "":
		libs := []*activities.Library{}
		if p.Activities != "" {
			lib, err := batch.LoadLibrary(p.Activities, nil)
			if err != nil {
				return "", nil, errorf(codeNotFound, "activities %v", err)
			}
			libs = append(libs, lib)
		}
		for _, lib := range append(libs, activities.Examples()) {
			if a, ok := lib.Find(p.Activity); ok {
				return a.Path, a.Source, nil
			}
		}
		return "", nil, errorf(codeNotFound, "activity %q not found in the embedded examples or the activities library", p.Activity)
	}
	return "", nil, errorf(codeInvalidParams, "give the definition as text, path or activity")
}

type validateParams struct {
	definitionParams
	Scenes bool `json:"scenes"`
}

// serveValidate reports every finding of a definition, as bddl validate
// --format json does (the records of 'bddl schema finding').
func serveValidate(s *server, raw json.RawMessage) (any, *serveError) {
	var p validateParams
	if e := decodeParams(raw, &p); e != nil {
		return nil, e
	}
	name, src, serr := p.source()
	if serr != nil {
		return nil, serr
	}
	base, serr := s.state.base(p.KB)
	if serr != nil {
		return nil, serr
	}
	var rules []activities.Option
	if !p.Scenes {
		rules = append(rules, activities.SkipRules("no-scene"))
	}
	prob, rep := activities.ValidateSource(name, src, base, rules...)
	counts := map[string]int{"error": 0, "warning": 0, "note": 0}
	for _, f := range rep.Findings {
		switch f.Severity {
		case bddl.Error:
			counts["error"]++
		case bddl.Warning:
			counts["warning"]++
		default:
			counts["note"]++
		}
	}
	// Written finding by finding and stopped at --max-response: a 15 MB
	// definition can have millions (the keys in the order a map has them).
	w := newCappedJSON(s.maxResponse)
	w.raw(`{"errors":`)
	w.value(counts["error"])
	w.raw(`,"file":`)
	w.value(name)
	w.raw(`,"findings":[`)
	for i, f := range rep.Findings {
		if i > 0 {
			w.raw(",")
		}
		if w.value(f); w.err != nil {
			break
		}
	}
	w.raw(`],"notes":`)
	w.value(counts["note"])
	w.raw(`,"problem":`)
	w.value(prob != nil)
	if p.Scenes && rep.Scenes != nil {
		w.raw(`,"scenes":`)
		w.value(rep.Scenes)
	}
	w.raw(`,"warnings":`)
	w.value(counts["warning"])
	w.raw("}")
	return w.result(s)
}

type explainParams struct {
	definitionParams
	GoalFormulas string `json:"goal_formulas"`
}

// serveExplain renders a problem's :init and :goal in words (the record
// of bddl explain --format json).
func serveExplain(s *server, raw json.RawMessage) (any, *serveError) {
	var p explainParams
	if e := decodeParams(raw, &p); e != nil {
		return nil, e
	}
	name, src, serr := p.source()
	if serr != nil {
		return nil, serr
	}
	parse, err := s.opts.Read(p.GoalFormulas)
	if err != nil {
		return nil, errorf(codeInvalidParams, "%v", err)
	}
	f, diags := parse.ParseFile(name, src)
	if diags.HasErrors() {
		return nil, asServeError(diags, codeDefinition)
	}
	if f.Problem == nil {
		return nil, errorf(codeInvalidParams, "%s is a domain file; explain takes a problem", name)
	}
	return s.opts.Explain(f.Problem), nil
}

type kbShowParams struct {
	Synsets []string `json:"synsets"`
	KB      string   `json:"kb"`
}

// serveKBShow is bddl kb show --format json: one record per synset; an
// unknown synset is a not_found error with a did-you-mean.
func serveKBShow(s *server, raw json.RawMessage) (any, *serveError) {
	var p kbShowParams
	if e := decodeParams(raw, &p); e != nil {
		return nil, e
	}
	if len(p.Synsets) == 0 {
		return nil, errorf(codeInvalidParams, "kb.show needs synsets")
	}
	base, serr := s.state.base(p.KB)
	if serr != nil {
		return nil, serr
	}
	// Written record by record and stopped at --max-response.
	w := newCappedJSON(s.maxResponse)
	w.raw(`{"synsets":[`)
	for i, name := range p.Synsets {
		id, ok := base.Lookup(kb.SynsetOfTerm(name))
		if !ok {
			return nil, errorf(codeNotFound, "%s", base.UnknownSynsetMessage(name))
		}
		if i > 0 {
			w.raw(",")
		}
		if w.value(s.opts.ShowSynset(base, id)); w.err != nil {
			break
		}
	}
	w.raw("]}")
	return w.result(s)
}

// cappedJSON writes a result piece by piece and stops once it passes the
// cap, so that a response too large is refused before it is built.
type cappedJSON struct {
	buf bytes.Buffer
	enc *json.Encoder
	max int
	err error
}

func newCappedJSON(max int) *cappedJSON {
	w := &cappedJSON{max: max}
	w.enc = json.NewEncoder(&w.buf)
	w.enc.SetEscapeHTML(false) // as the response encoder writes
	return w
}

func (w *cappedJSON) raw(s string) {
	if w.err == nil {
		w.buf.WriteString(s)
	}
}

func (w *cappedJSON) value(v any) {
	if w.err != nil {
		return
	}
	if err := w.enc.Encode(v); err != nil {
		w.err = err
		return
	}
	w.buf.Truncate(w.buf.Len() - 1) // the encoder's newline
	if w.buf.Len() > w.max {
		w.err = errTooLarge
	}
}

var errTooLarge = errors.New("too large")

func (w *cappedJSON) result(s *server) (any, *serveError) {
	switch {
	case w.err == errTooLarge:
		return nil, s.tooLarge(w.buf.Len())
	case w.err != nil:
		return nil, errorf(codeInternal, "marshalling the result: %v", w.err)
	}
	return json.RawMessage(w.buf.Bytes()), nil
}
