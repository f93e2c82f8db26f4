package show

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/openbddl/bddl/kb"
)

// Record is what the knowledge base knows about one synset: kb show's
// JSON record (and the server's).
type Record struct {
	Name       string        `json:"name"`
	Custom     bool          `json:"custom"`
	Leaf       bool          `json:"leaf"`
	Type       string        `json:"type,omitempty"`
	Parents    []string      `json:"parents"`
	Children   []string      `json:"children"`
	Ancestors  []string      `json:"ancestors"`
	Properties []Property    `json:"properties"`
	Thresholds kb.Thresholds `json:"thresholds"`
	Categories []string      `json:"categories"`
	Systems    []string      `json:"systems,omitempty"`
	Models     []kb.Model    `json:"models"`
	Rooms      []kb.RoomUse  `json:"rooms"`
	Rules      Rules         `json:"rules"`
}

// Property is a property of the synset, own or inherited, with its
// parameters.
type Property struct {
	Name      string              `json:"name"`
	Inherited bool                `json:"inherited"`
	Params    map[string]kb.Value `json:"params,omitempty"`
}

// Rules are the transition rules that consume, produce or need the
// synset.
type Rules struct {
	Consumes []kb.Rule `json:"consumes"`
	Produces []kb.Rule `json:"produces"`
	Uses     []kb.Rule `json:"uses"`
}

// Synset is the record of a synset of b.
func Synset(b *kb.Base, id kb.SynsetID) Record {
	nonNil := func(s []string) []string {
		if s == nil {
			return []string{}
		}
		return s
	}
	r := Record{
		Name:       b.Name(id),
		Custom:     b.IsCustom(id),
		Leaf:       b.IsLeaf(id),
		Type:       b.ObjectType(id),
		Parents:    nonNil(b.Names(b.Parents(id))),
		Children:   nonNil(b.Names(b.Children(id))),
		Ancestors:  nonNil(b.Names(b.Ancestors(id))),
		Thresholds: b.Thresholds(id),
		Categories: nonNil(b.CategoriesOf(id)),
		Systems:    b.SystemsOf(id),
		Models:     b.ModelsOf(id),
		Rooms:      b.RoomsWith(id),
		Rules: Rules{
			Consumes: b.RulesConsuming(id),
			Produces: b.RulesProducing(id),
			Uses:     b.RulesUsing(id),
		},
	}
	sort.Strings(r.Children)
	for _, p := range b.Properties(id) {
		pr := Property{Name: p.Name, Inherited: p.Inherited}
		if len(p.Params) > 0 {
			pr.Params = map[string]kb.Value{}
			for _, prm := range p.Params {
				pr.Params[prm.Name] = prm.Value
			}
		}
		r.Properties = append(r.Properties, pr)
	}
	if r.Models == nil {
		r.Models = []kb.Model{}
	}
	if r.Rooms == nil {
		r.Rooms = []kb.RoomUse{}
	}
	return r
}

// Limit is how many models, rooms, children and rules of each kind the
// text shows unless all are asked for.
const Limit = 10

// WriteText writes r, the record of synset id of b, for people: the
// first Limit of each list unless all.
func WriteText(w io.Writer, b *kb.Base, id kb.SynsetID, r Record, all bool) {
	var kind []string
	if r.Custom {
		kind = append(kind, "custom synset")
	} else {
		kind = append(kind, "WordNet synset")
	}
	if r.Leaf {
		kind = append(kind, "leaf")
	} else {
		kind = append(kind, fmt.Sprintf("%d leaf descendants", len(b.LeafDescendants(id))))
	}
	if r.Type != "" {
		kind = append(kind, r.Type)
	}
	fmt.Fprintf(w, "%s (%s)\n", r.Name, strings.Join(kind, ", "))
	fmt.Fprintf(w, "  parents:     %s\n", join(r.Parents))
	fmt.Fprintf(w, "  ancestors:   %s\n", join(r.Ancestors))
	children := r.Children
	if !all && len(children) > Limit {
		children = append(children[:Limit:Limit], fmt.Sprintf("... %d more", len(r.Children)-Limit))
	}
	fmt.Fprintf(w, "  children:    %s\n", join(children))

	// Properties: the distinguishing ones, those shared with a parent, and
	// the surface states every non-substance has, then the parameters.
	var own, inherited, surface, params []string
	for _, info := range b.Properties(id) {
		switch {
		case isSurface(info.Property):
			surface = append(surface, info.Name)
		case info.Inherited:
			inherited = append(inherited, info.Name)
		default:
			own = append(own, info.Name)
		}
		for _, prm := range info.Params {
			params = append(params, info.Name+"."+prm.Name+" = "+prm.Value.String())
		}
	}
	if len(own) > 0 {
		fmt.Fprintf(w, "  own:         %s\n", strings.Join(own, ", "))
	}
	if len(inherited) > 0 {
		fmt.Fprintf(w, "  inherited:   %s\n", strings.Join(inherited, ", "))
	}
	if len(surface) > 0 {
		fmt.Fprintf(w, "  surface:     %s\n", strings.Join(surface, ", "))
	}
	for i, p := range params {
		label := ""
		if i == 0 {
			label = "parameters:"
		}
		fmt.Fprintf(w, "  %-12s %s\n", label, p)
	}
	t := r.Thresholds
	fmt.Fprintf(w, "  thresholds:  cook %g, burn %g, hot %g, frozen %g, ignition %g, melt %g (°C)\n",
		t.Cook, t.Burn, t.Heat, t.Freeze, t.Ignition, t.Melt)

	fmt.Fprintf(w, "  categories:  %s\n", join(r.Categories))
	if len(r.Systems) > 0 {
		fmt.Fprintf(w, "  systems:     %s\n", strings.Join(r.Systems, ", "))
	}
	if len(r.Models) > 0 {
		fmt.Fprintf(w, "  models:      %d\n", len(r.Models))
		for i, m := range r.Models {
			if !all && i == Limit {
				fmt.Fprintf(w, "    ... %d more (--all)\n", len(r.Models)-Limit)
				break
			}
			line := "    " + m.Name
			if m.HasSize {
				line += fmt.Sprintf("  %.2f × %.2f × %.2f m", m.Size[0], m.Size[1], m.Size[2])
			}
			var links []string
			for _, l := range m.MetaLinks {
				if l != "collision" {
					links = append(links, l)
				}
			}
			if len(links) > 0 {
				line += "  [" + strings.Join(links, ", ") + "]"
			}
			fmt.Fprintln(w, line)
		}
	}
	if len(r.Rooms) > 0 {
		fmt.Fprintf(w, "  in rooms:    %d\n", len(r.Rooms))
		for i, u := range r.Rooms {
			if !all && i == Limit {
				fmt.Fprintf(w, "    ... %d more (--all)\n", len(r.Rooms)-Limit)
				break
			}
			fmt.Fprintf(w, "    %s %s  ×%d\n", u.Scene, u.Room, u.Count)
		}
	}
	for _, group := range []struct {
		label string
		rules []kb.Rule
	}{{"consumed by", r.Rules.Consumes}, {"produced by", r.Rules.Produces}, {"needed by", r.Rules.Uses}} {
		if len(group.rules) == 0 {
			continue
		}
		fmt.Fprintf(w, "  %s:\n", group.label)
		for i, rule := range group.rules {
			if !all && i == Limit {
				fmt.Fprintf(w, "    ... %d more (--all)\n", len(group.rules)-Limit)
				break
			}
			fmt.Fprintf(w, "    %s\n", rule.Describe())
		}
	}
}

// isSurface reports whether p is one of the surface states (dustyable,
// stainable, ...) that BEHAVIOR-1K gives every non-substance; show lists
// them apart so the distinguishing properties stand out.
func isSurface(p kb.Property) bool {
	return kb.Disinfectable <= p && p <= kb.Wrinkleable
}

// join joins names for text output.
func join(names []string) string {
	if len(names) == 0 {
		return "(none)"
	}
	return strings.Join(names, ", ")
}
