package bddl

import "encoding/json"

// Formula nodes marshal with a "kind" field so JSON consumers can tell the
// node types apart.

func (n *Atom) MarshalJSON() ([]byte, error) {
	type plain Atom
	return json.Marshal(struct {
		Kind string `json:"kind"`
		*plain
	}{"atom", (*plain)(n)})
}

func (n *Not) MarshalJSON() ([]byte, error) {
	type plain Not
	return json.Marshal(struct {
		Kind string `json:"kind"`
		*plain
	}{"not", (*plain)(n)})
}

func (n *And) MarshalJSON() ([]byte, error) {
	type plain And
	return json.Marshal(struct {
		Kind string `json:"kind"`
		*plain
	}{"and", (*plain)(n)})
}

func (n *Or) MarshalJSON() ([]byte, error) {
	type plain Or
	return json.Marshal(struct {
		Kind string `json:"kind"`
		*plain
	}{"or", (*plain)(n)})
}

func (n *Imply) MarshalJSON() ([]byte, error) {
	type plain Imply
	return json.Marshal(struct {
		Kind string `json:"kind"`
		*plain
	}{"imply", (*plain)(n)})
}

func (n *Quant) MarshalJSON() ([]byte, error) {
	type plain Quant
	return json.Marshal(struct {
		Kind string `json:"kind"`
		*plain
	}{n.Kind.String(), (*plain)(n)})
}

// MarshalText writes term kinds by name.
func (k TermKind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }
