package kb

import (
	_ "embed"
	"fmt"
	"os"
	"sync"
)

// EnvVar names the environment variable that selects a knowledge base
// when no --kb flag is given.
const EnvVar = "BDDL_KB"

// Load loads a knowledge base from path: a BEHAVIOR-1K knowledge-base
// directory (see LoadBehavior1K) or a YAML file in this package's format
// (see LoadYAML). On data errors it returns the partially loaded Base with
// a DataErrors error.
func Load(path string) (*Base, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("knowledge base %s: %w", path, err)
	}
	if info.IsDir() {
		return LoadBehavior1K(path)
	}
	data, err := readRegular(path, maxYAMLFile)
	if err != nil {
		return nil, fmt.Errorf("knowledge base %s: %w", path, err)
	}
	return LoadYAML(path, data)
}

//go:embed default.yaml
var defaultYAML []byte

// embeddedPath is the Origin path of the embedded default.
const embeddedPath = "(embedded)"

var defaultBase = sync.OnceValue(func() *Base {
	b, err := LoadYAML("default.yaml", defaultYAML)
	if err != nil {
		// The embedded file is ours and tested; failing here is a bug.
		panic("kb: embedded default knowledge base is invalid: " + err.Error())
	}
	b.origin.Path = embeddedPath
	return b
})

// Default returns the embedded default knowledge base, loaded once.
func Default() *Base { return defaultBase() }

// DefaultYAML returns the text of the embedded default knowledge base, for
// users who want a starting point for their own.
func DefaultYAML() []byte { return append([]byte(nil), defaultYAML...) }

// FromEnv selects the knowledge base a command uses: flag when it is not
// empty, else $BDDL_KB, else the embedded default.
func FromEnv(flag string) (*Base, error) {
	if flag != "" {
		return Load(flag)
	}
	if env := os.Getenv(EnvVar); env != "" {
		b, err := Load(env)
		if err != nil {
			return b, fmt.Errorf("$%s: %w", EnvVar, err)
		}
		return b, nil
	}
	return Default(), nil
}
