package activities

import (
	"fmt"

	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/kb"
)

// The language checker (bddl.Check) already reports :init and :goal
// names missing from :objects, categories and variables in :init, and
// unbound variables; this rule covers the other direction.

var ruleObjectNotInInit = &Rule{
	Code: "object-not-in-init", Name: "objects", Severity: bddl.Error,
	Doc: ":objects and :init mention the same instances: every declared instance appears in some :init literal " +
		"(the checker reports names used but not declared)",
	Fix: "place the instance in :init, declare it (future x) if the goal creates it, or delete it from :objects",
	Check: func(c *Context) {
		for i := range c.Instances {
			in := &c.Instances[i]
			if in.InInit {
				continue
			}
			fix := fmt.Sprintf("place it, e.g. %s; write (future %s) if the goal creates it; or delete it",
				c.placementHint(i), in.Ident.Name)
			if in.Wildcard {
				fix = fmt.Sprintf("add %s, or delete it", c.placementHint(i))
			}
			c.Report(in.Ident.Range, fmt.Sprintf("%s is declared in :objects but no :init literal mentions it", in.Ident.Name), fix)
		}
	},
}

// placementHint suggests a literal that would place instance i, using
// names from the problem where it can.
func (c *Context) placementHint(i int) string {
	in := &c.Instances[i]
	switch {
	case in.Substance:
		return fmt.Sprintf("(filled %s %s)", c.example(func(j int) bool { return c.Has(c.Instances[j].Synset, kb.Fillable) }, "CONTAINER"), in.Ident.Name)
	case c.Has(in.Synset, kb.SceneObject):
		room := "ROOM"
		for j := range c.Instances {
			if r := c.Instances[j].Room; r != "" {
				room = r
				break
			}
		}
		return fmt.Sprintf("(inroom %s %s)", in.Ident.Name, room)
	}
	return fmt.Sprintf("(ontop %s %s)", in.Ident.Name, c.example(func(j int) bool { return c.Instances[j].RoomLit >= 0 }, "SUPPORT"))
}

// example names the first non-wildcard instance satisfying ok, or def.
func (c *Context) example(ok func(int) bool, def string) string {
	for j := range c.Instances {
		if !c.Instances[j].Wildcard && ok(j) {
			return c.Instances[j].Ident.Name
		}
	}
	return def
}
