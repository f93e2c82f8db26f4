package episode

import _ "embed"

// Schema is the JSON Schema (draft 2020-12) of the recording format: line
// 1 validates against its Header, every further line against its Step. It
// is kept in step with the reader by TestSchemaMatchesReader.
//
//go:embed episode.schema.json
var Schema []byte
