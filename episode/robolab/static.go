package robolab

import (
	"gopkg.in/yaml.v3"

	"github.com/openbddl/bddl/episode"
)

// ParseStatic parses a static: section of a YAML mapping file (the same
// form as a RoboLab map's), for other layouts' maps; file is used in
// messages, which give the line of the entry at fault.
func ParseStatic(file string, n *yaml.Node) (map[string]*episode.Object, error) {
	m := &Map{File: file, Static: map[string]*episode.Object{}, staticLines: map[string]int{}}
	if err := m.parseStatic(n); err != nil {
		return nil, err
	}
	return m.Static, nil
}
