package batch

import (
	"bytes"
	"encoding/json"
)

// MarshalLine encodes v as one JSON line ending in "\n", without HTML
// escaping (a key path "a > b" stays readable), as every record of bddl's
// JSON Lines output is written.
func MarshalLine(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
