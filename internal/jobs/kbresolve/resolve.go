package kbresolve

import (
	"os"

	"github.com/openbddl/bddl/internal/b1klayout"
	"github.com/openbddl/bddl/internal/config"
	"github.com/openbddl/bddl/kb"
)

// Setting is one resolved setting and where it came from.
type Setting struct {
	Value  string
	Source string // "--kb", "$BDDL_KB", "bddl.toml (/abs/path)", "the BEHAVIOR-1K tree of X", "embedded default"
}

// FallbackEnvVar names the knowledge base of an installed bddl package,
// used when nothing else names one: the Python client sets it from the
// bddl package it can import. Users set $BDDL_KB instead.
const FallbackEnvVar = "BDDL_KB_INSTALLED"

// SourceNone is KB's source when nothing named a knowledge base.
const SourceNone = "nothing else given"

// Embedded is Source's name for the embedded example knowledge base.
const Embedded = "(embedded default)"

// Inputs are what a run's knowledge base and library are resolved from.
type Inputs struct {
	Flag    string          // --kb
	Project *config.Project // bddl.toml, when one is found
	Hints   []string        // input paths the knowledge base may be inferred from
}

// KB decides which knowledge base the run uses and why: --kb, $BDDL_KB,
// the project file, the BEHAVIOR-1K tree around an input, the installed
// bddl package the Python client found, the embedded default.
func (in Inputs) KB() Setting {
	switch {
	case in.Flag != "":
		return Setting{in.Flag, "--kb"}
	case os.Getenv(kb.EnvVar) != "":
		return Setting{os.Getenv(kb.EnvVar), "$" + kb.EnvVar}
	case in.Project != nil && in.Project.KB != "":
		return Setting{in.Project.KB, in.Project.Path}
	}
	for _, h := range in.Hints {
		if l, ok := b1klayout.Around(h); ok {
			return Setting{l.Data, "the BEHAVIOR-1K tree of " + h}
		}
	}
	if v := os.Getenv(FallbackEnvVar); v != "" {
		return Setting{v, "the installed bddl package ($" + FallbackEnvVar + ")"}
	}
	return Setting{"", SourceNone}
}

// Activities is the activity library the run uses and why: the
// --activities flag (or the project file's, applied to it; inferred is
// the library the inputs gave, fromProject the flags bddl.toml set),
// else the activity_definitions of the BEHAVIOR-1K tree around an input.
func (in Inputs) Activities(flag string, inferred Setting, fromProject []string) Setting {
	if flag != "" && flag == inferred.Value {
		return inferred
	}
	if flag != "" {
		src := "--activities"
		for _, n := range fromProject {
			if n == "activities" && in.Project != nil {
				src = in.Project.Path
			}
		}
		return Setting{flag, src}
	}
	for _, h := range in.Hints {
		if l, ok := b1klayout.Around(h); ok && l.Activities != "" {
			return Setting{l.Activities, "the BEHAVIOR-1K tree of " + h}
		}
	}
	// The activity_definitions of the package a knowledge base given by
	// --kb, $BDDL_KB or bddl.toml belongs to: names resolve in its tree.
	if k := in.KB(); k.Value != "" && k.Source != SourceNone {
		if l := b1klayout.Recognise(k.Value); l.Activities != "" {
			return Setting{l.Activities, "beside the knowledge base " + k.Value}
		}
	}
	return Setting{"", "none (embedded examples only)"}
}

// Explicit reports whether the user chose the knowledge base: on the
// command line, in the environment or in the project file.
func (in Inputs) Explicit(s Setting) bool {
	return s.Source == "--kb" || s.Source == "$"+kb.EnvVar || (in.Project != nil && s.Source == in.Project.Path)
}

// Source names the knowledge base in use, for messages.
func (in Inputs) Source() string {
	switch s := in.KB(); {
	case s.Value == "":
		return Embedded
	case s.Source == "--kb":
		return s.Value
	default:
		return s.Value + " (" + s.Source + ")"
	}
}
