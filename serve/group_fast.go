package serve

import (
	"bytes"
	"strconv"
)

// The group.step params as openbddl writes them every tick of a
// vectorised loop are read here without encoding/json, whose strict
// decoding of the envelope cost a quarter of the server's time for a
// group of 16 (python/bench/group_speed.py): {"sessions":[S,...],
// ["explain":true,]["records":true,]["numbers":[N,...],]
// "steps_marshal":"B64"}, the sessions plain ids as the server names
// them, list items separated by "," or ", ". Params so written decode
// to the same groupStepParams on the generic path, or, when
// steps_marshal is not base64, are refused by both (FuzzGroupParamsFast);
// anything else takes the generic path, which reports its errors.

// groupSessions remembers the last group.step's sessions list: a loop
// sends the same list every tick, and its ids are read once. Used by the
// reader only (dispatchGroup).
type groupSessions struct {
	raw []byte
	ids []string
	b64 []byte // scratch: the marshalled steps decoded (groupLines)
}

// parseGroupFast fills p from params written as above; ok false leaves
// the params to decodeWhole. The sessions slice may be the cache's,
// shared with earlier requests: it is never modified.
func (c *groupSessions) parseGroupFast(raw []byte, p *groupStepParams) bool {
	rest, ok := bytes.CutPrefix(raw, []byte(`{"sessions":[`))
	if !ok {
		return false
	}
	end := bytes.IndexByte(rest, ']')
	if end < 0 {
		return false
	}
	list := rest[:end]
	if c.raw != nil && bytes.Equal(list, c.raw) {
		p.Sessions = c.ids
	} else {
		ids, ok := plainIDList(list)
		if !ok {
			return false
		}
		c.raw, c.ids = append(c.raw[:0:0], list...), ids
		p.Sessions = ids
	}
	rest = rest[end+1:]
	if r, ok := bytes.CutPrefix(rest, []byte(`,"explain":true`)); ok {
		rest, p.Explain = r, true
	}
	if r, ok := bytes.CutPrefix(rest, []byte(`,"records":true`)); ok {
		rest, p.Records = r, true
	}
	if r, ok := bytes.CutPrefix(rest, []byte(`,"numbers":[`)); ok {
		end := bytes.IndexByte(r, ']')
		if end < 0 {
			return false
		}
		if p.Numbers, ok = intList(r[:end]); !ok {
			return false
		}
		rest = r[end+1:]
	}
	b64, ok := bytes.CutPrefix(rest, []byte(`,"steps_marshal":"`))
	if !ok {
		return false
	}
	if b64, ok = bytes.CutSuffix(b64, []byte(`"}`)); !ok {
		return false
	}
	// An escape or a quote: the JSON string may not be its bytes. '\r'
	// and '\n', which base64 skips, are not JSON (a line has no '\n', but
	// the params may come from elsewhere). Any other byte not base64 fails
	// its decoding (groupLines), as the string read as JSON would.
	if bytes.IndexByte(b64, '\\') >= 0 || bytes.IndexByte(b64, '"') >= 0 || bytes.IndexByte(b64, '\r') >= 0 ||
		bytes.IndexByte(b64, '\n') >= 0 {
		return false
	}
	p.stepsB64 = b64
	return true
}

// plainIDList reads `"a", "b"` (or `"a","b"`): at least one id, each a
// plain string (plainID).
func plainIDList(b []byte) ([]string, bool) {
	var ids []string
	for {
		if len(b) < 2 || b[0] != '"' {
			return nil, false
		}
		end := bytes.IndexByte(b[1:], '"')
		if end < 0 || !plainID(b[1:1+end]) {
			return nil, false
		}
		ids = append(ids, string(b[1:1+end]))
		b = b[end+2:]
		if len(b) == 0 {
			return ids, true
		}
		var ok bool
		if b, ok = cutComma(b); !ok {
			return nil, false
		}
	}
}

// intList reads `1, 2` (or `1,2`): at least one integer, written as JSON
// writes an int64 (no leading zeros, no fraction or exponent).
func intList(b []byte) ([]int64, bool) {
	var out []int64
	for {
		end := 0
		if end < len(b) && b[end] == '-' {
			end++
		}
		digits := end
		for end < len(b) && '0' <= b[end] && b[end] <= '9' {
			end++
		}
		if end == digits || (b[digits] == '0' && end > digits+1) {
			return nil, false
		}
		v, err := strconv.ParseInt(string(b[:end]), 10, 64)
		if err != nil {
			return nil, false
		}
		out = append(out, v)
		b = b[end:]
		if len(b) == 0 {
			return out, true
		}
		var ok bool
		if b, ok = cutComma(b); !ok {
			return nil, false
		}
	}
}

// cutComma cuts the ", " (or ",") between two items of a list as json or
// Python writes it.
func cutComma(b []byte) ([]byte, bool) {
	if r, ok := bytes.CutPrefix(b, []byte(", ")); ok {
		return r, true
	}
	return bytes.CutPrefix(b, []byte(","))
}
