package sampler

import (
	"fmt"
	"strings"
)

// Kind is the type of a sampling failure.
type Kind string

// The failure kinds. Each names why an activity cannot be sampled in a
// scene, so a user knows whether to change the definition, the scene or
// the knowledge base.
const (
	// NoScene: no scene of the knowledge base can host the activity.
	NoScene Kind = "no-scene"
	// NoRoom: the scene has no room of a needed type holding the in-room
	// objects.
	NoRoom Kind = "no-room"
	// NoModel: no object model of the synset's subtree has what the
	// literals need (a container volume, a toggle button, an attachment).
	NoModel Kind = "no-model"
	// NoSpace: the objects do not fit where the literals put them.
	NoSpace Kind = "no-space"
	// Contradiction: the literals ask for incompatible values.
	Contradiction Kind = "contradiction"
	// Unsupported: a literal the sampler cannot set (a negated inroom, a
	// connective in :init, a predicate with no setter).
	Unsupported Kind = "unsupported"
	// Internal: the sampled state does not satisfy the literals by our own
	// evaluator. This is a bug of the sampler, never a retry.
	Internal Kind = "internal"
	// Output: the sample could not be written (an output directory that
	// is not writable, a full disk): the command's output, not the
	// sampling, failed.
	Output Kind = "output"
)

// Failure explains why an activity could not be sampled in a scene.
type Failure struct {
	Kind    Kind     `json:"kind"`
	Scene   string   `json:"scene,omitempty"`
	Literal string   `json:"literal,omitempty"`
	Objects []string `json:"objects,omitempty"`
	Message string   `json:"message"`
	// Tried holds, for a no-scene failure after trying several scenes,
	// why each of them failed.
	Tried []*Failure `json:"tried,omitempty"`
}

func (f *Failure) Error() string {
	var b strings.Builder
	b.WriteString(string(f.Kind))
	if f.Scene != "" {
		b.WriteString(" in " + f.Scene)
	}
	b.WriteString(": " + f.Message)
	if f.Literal != "" {
		b.WriteString(" (" + f.Literal + ")")
	}
	for _, t := range f.Tried {
		b.WriteString("\n  " + t.Error())
	}
	return b.String()
}

func failf(kind Kind, lit *literal, objects []string, format string, args ...any) *Failure {
	f := &Failure{Kind: kind, Objects: objects, Message: fmt.Sprintf(format, args...)}
	if lit != nil {
		f.Literal = lit.String()
		if objects == nil {
			f.Objects = lit.objectNames()
		}
	}
	return f
}
