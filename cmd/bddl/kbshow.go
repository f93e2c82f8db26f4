package main

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/openbddl/bddl/kb"
)

// ---------------------------------------------------------------------
// kb show

type kbShowOptions struct {
	*globalOptions
	format string
	all    bool
}

func newKBShowCmd(g *globalOptions) *cobra.Command {
	opts := &kbShowOptions{globalOptions: g}
	cmd := &cobra.Command{
		Use:   "show SYNSET...",
		Short: "Show what the knowledge base knows about synsets",
		Long: `Show a synset: its hypernyms and hyponyms, its properties with their
parameters (own, or inherited from the kind of thing it is), its thresholds,
the object categories and models that can stand for it (with bounding-box
sizes), the scene rooms containing it, and the transition rules that consume,
produce or need it. Instance names (apple.n.01_1) are accepted.

An unknown synset is reported on stderr with a did-you-mean; the exit status
is then 1.`,
		Example: `  bddl kb show apple.n.01
  bddl kb show oven.n.01 water.n.06 --format json
  bddl --kb BEHAVIOR-1K/bddl3/bddl kb show half__apple.n.01`,
		Args:              minArgs(1, "a synset name, e.g. apple.n.01"),
		ValidArgsFunction: completeSynsets(g),
		RunE:              func(_ *cobra.Command, args []string) error { return runKBShow(opts, args) },
	}
	cmd.Flags().StringVar(&opts.format, "format", "text", "output format: text or json")
	cmd.Flags().BoolVar(&opts.all, "all", false, "list every model and room (text output shows the first 10)")
	return cmd
}

// kbShowRecord is the JSON output for one synset.
type kbShowRecord struct {
	Name       string          `json:"name"`
	Custom     bool            `json:"custom"`
	Leaf       bool            `json:"leaf"`
	Type       string          `json:"type,omitempty"`
	Parents    []string        `json:"parents"`
	Children   []string        `json:"children"`
	Ancestors  []string        `json:"ancestors"`
	Properties []kbPropRecord  `json:"properties"`
	Thresholds kb.Thresholds   `json:"thresholds"`
	Categories []string        `json:"categories"`
	Systems    []string        `json:"systems,omitempty"`
	Models     []kb.Model      `json:"models"`
	Rooms      []kb.RoomUse    `json:"rooms"`
	Rules      kbRulesOfSynset `json:"rules"`
}

type kbPropRecord struct {
	Name      string              `json:"name"`
	Inherited bool                `json:"inherited"`
	Params    map[string]kb.Value `json:"params,omitempty"`
}

type kbRulesOfSynset struct {
	Consumes []kb.Rule `json:"consumes"`
	Produces []kb.Rule `json:"produces"`
	Uses     []kb.Rule `json:"uses"`
}

func showRecord(b *kb.Base, id kb.SynsetID) kbShowRecord {
	nonNil := func(s []string) []string {
		if s == nil {
			return []string{}
		}
		return s
	}
	r := kbShowRecord{
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
		Rules: kbRulesOfSynset{
			Consumes: b.RulesConsuming(id),
			Produces: b.RulesProducing(id),
			Uses:     b.RulesUsing(id),
		},
	}
	sort.Strings(r.Children)
	for _, p := range b.Properties(id) {
		pr := kbPropRecord{Name: p.Name, Inherited: p.Inherited}
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

func runKBShow(opts *kbShowOptions, names []string) error {
	if err := checkFormat(opts.format); err != nil {
		return err
	}
	b, err := opts.loadKB()
	if err != nil {
		return misuse("%v", err)
	}
	ids, unknown := kbLookupSynsets(opts.globalOptions, b, names)
	for i, id := range ids {
		rec := showRecord(b, id)
		if opts.format == "json" {
			if err := kbWriteJSON(opts.out, rec); err != nil {
				return err
			}
			continue
		}
		if i > 0 {
			fmt.Fprintln(opts.out)
		}
		writeShowText(opts.out, b, id, rec, opts.all)
	}
	if unknown {
		return findings()
	}
	return nil
}

const kbShowLimit = 10

func writeShowText(w io.Writer, b *kb.Base, id kb.SynsetID, r kbShowRecord, all bool) {
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
	fmt.Fprintf(w, "  parents:     %s\n", kbJoin(r.Parents))
	fmt.Fprintf(w, "  ancestors:   %s\n", kbJoin(r.Ancestors))
	children := r.Children
	if !all && len(children) > kbShowLimit {
		children = append(children[:kbShowLimit:kbShowLimit], fmt.Sprintf("... %d more", len(r.Children)-kbShowLimit))
	}
	fmt.Fprintf(w, "  children:    %s\n", kbJoin(children))

	// Properties: the distinguishing ones, those shared with a parent, and
	// the surface states every non-substance has, then the parameters.
	var own, inherited, surface, params []string
	for _, info := range b.Properties(id) {
		switch {
		case kbIsSurface(info.Property):
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

	fmt.Fprintf(w, "  categories:  %s\n", kbJoin(r.Categories))
	if len(r.Systems) > 0 {
		fmt.Fprintf(w, "  systems:     %s\n", strings.Join(r.Systems, ", "))
	}
	if len(r.Models) > 0 {
		fmt.Fprintf(w, "  models:      %d\n", len(r.Models))
		for i, m := range r.Models {
			if !all && i == kbShowLimit {
				fmt.Fprintf(w, "    ... %d more (--all)\n", len(r.Models)-kbShowLimit)
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
			if !all && i == kbShowLimit {
				fmt.Fprintf(w, "    ... %d more (--all)\n", len(r.Rooms)-kbShowLimit)
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
			if !all && i == kbShowLimit {
				fmt.Fprintf(w, "    ... %d more (--all)\n", len(group.rules)-kbShowLimit)
				break
			}
			fmt.Fprintf(w, "    %s\n", rule.Describe())
		}
	}
}

// kbIsSurface reports whether p is one of the surface states (dustyable,
// stainable, ...) that BEHAVIOR-1K gives every non-substance; show lists
// them apart so the distinguishing properties stand out.
func kbIsSurface(p kb.Property) bool {
	return kb.Disinfectable <= p && p <= kb.Wrinkleable
}
