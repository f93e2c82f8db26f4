package robolab

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/openbddl/bddl/episode"
	"github.com/openbddl/bddl/internal/fsutil"
	"github.com/openbddl/bddl/internal/yamlguard"
)

// Map says which BDDL instance each RoboLab object is, and gives the
// header fields of the instances RoboLab does not record (see the package
// documentation for the file's form).
type Map struct {
	// File is where the map was read from, for messages.
	File string
	// Activity is the activity the map was written for; "" when not given.
	Activity string
	// Names maps a RoboLab object name to a BDDL instance; "" ignores the
	// object on purpose.
	Names map[string]string
	// Static are header objects (episode format fields) by instance.
	Static map[string]*episode.Object
	// staticLines are the lines of the static entries, for messages.
	staticLines map[string]int
}

// maxMapSize bounds the map file read; maxMapNodes its YAML nodes with
// aliases expanded (a map of thousands of objects has tens of thousands).
const (
	maxMapSize  = 16 << 20
	maxMapNodes = 1 << 18
)

// LoadMap reads a map file. It opens only regular files.
func LoadMap(path string) (*Map, error) {
	data, err := fsutil.ReadFile(path, maxMapSize)
	if err != nil {
		return nil, err
	}
	return ParseMap(path, data)
}

// ParseMap parses a map file's text; name is used in messages.
func ParseMap(name string, data []byte) (*Map, error) {
	m := &Map{File: name, Names: map[string]string{}, Static: map[string]*episode.Object{}, staticLines: map[string]int{}}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("%s: %v", name, strings.TrimPrefix(err.Error(), "yaml: "))
	}
	if err := yamlguard.Check(name, &doc, maxMapNodes); err != nil {
		return nil, err
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		return nil, fmt.Errorf("%s: empty: a map has names: and static: sections", name)
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return nil, m.errAt(root, "", "expected a mapping with names: and static:")
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		switch k.Value {
		case "activity":
			if v.Kind != yaml.ScalarNode || v.ShortTag() != "!!str" || v.Value == "" {
				return nil, m.errAt(v, "activity", "expected an activity name or problem file")
			}
			m.Activity = v.Value
		case "names":
			if err := m.parseNames(v); err != nil {
				return nil, err
			}
		case "static":
			if err := m.parseStatic(v); err != nil {
				return nil, err
			}
		default:
			return nil, m.errAt(k, k.Value, "unknown section: a map has activity:, names: and static:")
		}
	}
	return m, nil
}

func (m *Map) errAt(n *yaml.Node, field, msg string) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s:%d:%d: ", m.File, n.Line, n.Column)
	if field != "" {
		b.WriteString(field + ": ")
	}
	b.WriteString(msg)
	return errors.New(b.String())
}

func (m *Map) parseNames(n *yaml.Node) error {
	if n.ShortTag() == "!!null" {
		return nil
	}
	if n.Kind != yaml.MappingNode {
		return m.errAt(n, "names", "expected a mapping of RoboLab object names to BDDL instances")
	}
	taken := map[string]string{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind != yaml.ScalarNode || k.Value == "" {
			return m.errAt(k, "names", "expected a RoboLab object name")
		}
		if _, dup := m.Names[k.Value]; dup {
			return m.errAt(k, "names."+k.Value, "given twice")
		}
		switch {
		case v.ShortTag() == "!!null":
			m.Names[k.Value] = "" // recorded, not used
		case v.Kind == yaml.ScalarNode && v.ShortTag() == "!!str" && v.Value != "":
			inst := fold(v.Value)
			if other, dup := taken[inst]; dup {
				return m.errAt(v, "names."+k.Value, fmt.Sprintf("%s is already the instance of %s", v.Value, other))
			}
			taken[inst] = k.Value
			m.Names[k.Value] = v.Value
		default:
			return m.errAt(v, "names."+k.Value, "expected a BDDL instance name, or null to ignore the object")
		}
	}
	return nil
}

func (m *Map) parseStatic(n *yaml.Node) error {
	if n.ShortTag() == "!!null" {
		return nil
	}
	if n.Kind != yaml.MappingNode {
		return m.errAt(n, "static", "expected a mapping of BDDL instances to episode object fields")
	}
	// The entries are parsed by the episode format's own header parser,
	// so they take exactly its field names and checks. The YAML is turned
	// into JSON in document order: the order of joints matters.
	var buf bytes.Buffer
	buf.WriteString(`{"bddl_episode":1,"activity":"map","objects":`)
	if err := yamlToJSON(&buf, n, 0); err != nil {
		return m.errAt(n, "static", err.Error())
	}
	buf.WriteString("}\n")
	for i := 0; i+1 < len(n.Content); i += 2 {
		m.staticLines[fold(n.Content[i].Value)] = n.Content[i].Line
	}
	r, err := episode.NewReader(&buf, m.File)
	if err != nil {
		var ee *episode.Error
		if errors.As(err, &ee) {
			field := "static" + strings.TrimPrefix(ee.Field, "objects")
			// The line of the instance the field is in: the longest
			// instance name the field path starts with.
			line, rest, best := n.Line, fold(strings.TrimPrefix(field, "static.")), 0
			for inst, l := range m.staticLines {
				if len(inst) > best && strings.HasPrefix(rest, inst) {
					line, best = l, len(inst)
				}
			}
			return fmt.Errorf("%s:%d: %s: %s", m.File, line, field, ee.Msg)
		}
		return fmt.Errorf("%s: static: %v", m.File, err)
	}
	for name, o := range r.Header().Objects {
		m.Static[name] = o
	}
	return nil
}

// maxJSON bounds the JSON made of a map's static section (YAML aliases
// can multiply a small file).
const maxJSON = 64 << 20

// yamlToJSON writes a YAML node as JSON, keeping the order of mappings.
func yamlToJSON(b *bytes.Buffer, n *yaml.Node, depth int) error {
	if depth > 64 {
		return errors.New("nested too deeply")
	}
	if b.Len() > maxJSON {
		return errors.New("too large once aliases are expanded")
	}
	switch n.Kind {
	case yaml.AliasNode:
		return yamlToJSON(b, n.Alias, depth+1)
	case yaml.MappingNode:
		b.WriteByte('{')
		for i := 0; i+1 < len(n.Content); i += 2 {
			if i > 0 {
				b.WriteByte(',')
			}
			k := n.Content[i]
			if k.Kind != yaml.ScalarNode {
				return fmt.Errorf("line %d: a key must be a name", k.Line)
			}
			kj, _ := json.Marshal(k.Value)
			b.Write(kj)
			b.WriteByte(':')
			if err := yamlToJSON(b, n.Content[i+1], depth+1); err != nil {
				return err
			}
		}
		b.WriteByte('}')
	case yaml.SequenceNode:
		b.WriteByte('[')
		for i, c := range n.Content {
			if i > 0 {
				b.WriteByte(',')
			}
			if err := yamlToJSON(b, c, depth+1); err != nil {
				return err
			}
		}
		b.WriteByte(']')
	case yaml.ScalarNode:
		var v any
		if err := n.Decode(&v); err != nil {
			return fmt.Errorf("line %d: %v", n.Line, err)
		}
		j, err := json.Marshal(v)
		if err != nil {
			return fmt.Errorf("line %d: %s is not a JSON value", n.Line, n.Value)
		}
		b.Write(j)
	default:
		return fmt.Errorf("line %d: unexpected YAML", n.Line)
	}
	return nil
}

// fold is the case-insensitive form of a name, as instances compare.
func fold(s string) string { return strings.ToLower(s) }
