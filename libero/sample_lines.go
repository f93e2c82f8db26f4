package libero

import (
	"encoding/json"
	"fmt"
	"io"
)

// SampleLines is an emit function for SampleDefinitions printing what
// bddl sample prints of each configuration on w: its record as one JSON
// line, else an "ok" or "FAIL" line as for BEHAVIOR-1K configurations.
func SampleLines(w io.Writer, asJSON bool) func(SampleRecord, error) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return func(rec SampleRecord, err error) error {
		switch {
		case asJSON:
			return enc.Encode(rec)
		case err != nil:
			fmt.Fprintf(w, "FAIL  %s  #%d  %v\n", rec.Activity, rec.Index, err)
		default:
			fmt.Fprintf(w, "ok    %s  %s  %.1f ms\n", rec.Activity, rec.File, rec.Ms)
		}
		return nil
	}
}
