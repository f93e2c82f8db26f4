package episode

import (
	"bytes"
	"encoding/json"
)

// ConvertedRecord is the JSON line (without its newline) of one episode
// a converter wrote (episode convert, from-omnigibson, from-oopsie;
// schema "converted"): the same names for the same things, "file" the
// episode written, "episode" what it was converted from, "activity" the
// canonical name, then the converter's own fields of details (a struct
// or a map), whose "instance" and "output" are not repeated.
func ConvertedRecord(file, source, activity string, details any) ([]byte, error) {
	rec := map[string]any{}
	if details != nil {
		b, err := json.Marshal(details)
		if err != nil {
			return nil, err
		}
		if err := json.Unmarshal(b, &rec); err != nil {
			return nil, err
		}
	}
	delete(rec, "instance")
	delete(rec, "output")
	rec["record"] = "converted"
	rec["episode"] = source
	rec["activity"] = activity
	if file != "" {
		rec["file"] = file
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(rec); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}
