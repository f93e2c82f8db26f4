package kbresolve

import (
	"fmt"
	"io"
	"os"
	"sort"
	"text/tabwriter"

	"github.com/openbddl/bddl/internal/b1klayout"
	"github.com/openbddl/bddl/internal/config"
	"github.com/openbddl/bddl/kb"
)

// Record is one resolved setting as bddl config prints it: its name,
// value and where the value came from (bddl schema setting).
type Record struct {
	Record  string `json:"record"` // "setting"
	Type    string `json:"type"`   // "setting", as before record was added
	Setting string `json:"setting"`
	Value   string `json:"value"`
	Source  string `json:"source"`
}

// Report lists the settings a run would use: the project file (found
// from dir), the knowledge base (saying which folder of a package or
// checkout is read), the activity library, the flag defaults bddl.toml
// sets (but those bad says are wrong, by table and key) and a $BDDL_KB
// that something overrode.
func Report(in Inputs, activities Setting, dir string, bad map[string]string) []Record {
	var recs []Record
	add := func(name string, s Setting) {
		recs = append(recs, Record{Record: "setting", Type: "setting", Setting: name, Value: s.Value, Source: s.Source})
	}
	if in.Project != nil {
		add("project", Setting{in.Project.Path, "found from " + workDir(dir)})
	} else {
		add("project", Setting{"", "none: no " + config.FileName + " here or in a parent"})
	}
	k := in.KB()
	switch l := b1klayout.Recognise(k.Value); {
	case k.Value == "":
		k.Value = Embedded
	case l.Kind == b1klayout.PythonCode && l.Data == "":
		k.Source += "; not a knowledge base: the bddl package's Python code, with no generated_data/ beside it"
	case l.Data != "" && l.Data != l.Path:
		// A package, checkout or Python knowledge_base/: say which
		// folder is read.
		k.Source += "; reads its data, " + l.Data
	}
	add("kb", k)
	add("activities", activities)
	if p := in.Project; p != nil {
		for _, t := range sortedKeys(p.Tables) {
			for _, key := range sortedKeys(p.Tables[t]) {
				if bad[t+"\x00"+key] == "" {
					add(config.TableName(t)+"."+key, Setting{fmt.Sprint(p.Tables[t][key]), p.Path})
				}
			}
		}
	}
	if os.Getenv(kb.EnvVar) != "" && k.Source != "$"+kb.EnvVar {
		add("$"+kb.EnvVar, Setting{os.Getenv(kb.EnvVar), "environment (overridden)"})
	}
	return recs
}

// WriteText writes the records as a table: setting, value ("-" when
// empty), source.
func WriteText(w io.Writer, recs []Record) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "SETTING\tVALUE\tFROM")
	for _, r := range recs {
		v := r.Value
		if v == "" {
			v = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", r.Setting, v, r.Source)
	}
	return tw.Flush()
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func workDir(dir string) string {
	if dir != "" {
		return dir
	}
	wd, _ := os.Getwd()
	return wd
}
