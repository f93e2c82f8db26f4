// Package episode reads, writes and checks recorded episodes: the object
// states of a robot's attempt at a BDDL activity, step by step, in the
// format below (its JSON Schema is Schema, episode.schema.json).
//
// # Format
//
// JSON Lines, optionally gzip-compressed (recognised by its magic bytes).
// Line 1 is the header, every further line one step; blank lines are
// ignored, CRLF line ends accepted.
//
//	{"bddl_episode": 1, "activity": "tidying_the_living_room", "dt": 0.5, "closed_world": false,
//	 "steps": 8, "objects": {"mug.n.04_1": {"aabb": [1.2, 1.7, 0.4, 1.3, 1.8, 0.5]}}, "meta": {...}}
//	{"step": 0, "t": 0}
//	{"step": 6, "t": 3, "objects": {"mug.n.04_1": {"aabb": [5.2, 5.2, 0.82, 5.3, 5.3, 0.92]}},
//	 "facts": [["toggled_on", "sink.n.01_1"]], "false": [...], "unset": [...]}
//
// Object fields (all optional; an omitted field keeps its previous value,
// null forgets it): exists, pos, quat, aabb, obb (8 corners, 0–3 the
// bottom face), temperature, max_temperature, joints ({"door": {"q", "lo",
// "hi", "dir"}}, replacing the previous joints) or open_fraction,
// toggled_on, sliced, broken, contacts (every instance in contact now),
// attached_to, grasped_by, room ("" for none), particles (per substance:
// inside, fill_fraction, covering, absorbed, absorb_limit; a substance's
// record replaces its previous one), cloth (area_ratio, diagonal_ratio,
// smoothness), box_error ([horizontal, vertical]: how far an estimated box
// may be off, in metres). "facts" and "false" record atoms true or false from that
// step on, "unset" forgets them; with closed_world an atom recorded
// nowhere is false. Unknown fields are ignored with a warning, so the
// format can grow compatibly. Names compare case-insensitively and may
// carry the "?" of goals; an inroom fact naming a room type the
// definition never mentions is ignored, as it cannot matter.
//
// Existence: an instance never named in the recording does not exist; the
// first time it is named (as a key of objects, in contacts, attached_to,
// grasped_by or particles, or in an atom other than future and real) it
// starts existing, unless that record says "exists": false. Instances
// standing for a wildcard of the definition (cabinet.n.01_*) are listed in
// the header's objects (Wildcards finds them).
//
// "steps" in the header declares the number of step lines; a reader given
// it reports a file that ends early as truncated, which is otherwise
// undetectable at a line boundary. The Writer always knows it when the
// caller does (FromInit, Synthesize).
//
// # Reading
//
// NewReader reads the header. Bind then loads it into a
// predicates.State, and Next decodes each step straight into that state
// through its setters: a hand-written scanner over the line (keys matched
// as bytes, names resolved through a map indexed without allocating,
// numbers converted by the Eisel-Lemire algorithm), with no allocation per
// step once the buffers have grown. A line is parsed and validated in full
// before any of it is applied, so a bad line leaves the state untouched:
// in strict mode it is an *Error ("ep.jsonl:17: step 16:
// objects.apple.n.01_1.aabb: min x 0.5 > max x 0.2"); with SetLenient it
// is skipped and counted. ReadStep and ReadAll read steps as values
// instead (Step, Object), for tools and tests.
//
// # Checking
//
// Check evaluates :init at the first step and :goal at every step, and
// reports a Result: success (the goal held for CheckOptions.Hold
// consecutive step lines, the recording was read without error and
// without skipped steps), the first success step (the step completing the
// first such run), whether the goal holds at the last step, :init's truth
// at the first step with the literals that did not hold, the library and
// challenge scores at the last step against the first (1 on success), the
// goal's unsatisfied and undetermined literals at the last step with the
// recorded values they were decided on, and how many atoms were decided
// by box geometry (approximate) or left undetermined. A Result's JSON is
// a line of a results file whose names follow RoboLab's
// episode_results.jsonl where they mean the same.
package episode
