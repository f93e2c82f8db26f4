package libero

import (
	"fmt"
	"strings"
)

// KnowledgeMarkdown renders the knowledge table as the Markdown tables of
// docs/libero.md, so the page cannot drift from the code.
func KnowledgeMarkdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "Read from LIBERO at commit `%s`.\n\n", SourceCommit)
	b.WriteString("| problem class | workspace (instance - category) | size x × y (m) | offset (m) | source |\n|---|---|---|---|---|\n")
	for _, c := range problemClasses {
		size := "no edge"
		if c.Size[0] > 0 {
			size = fmt.Sprintf("%g × %g", c.Size[0], c.Size[1])
		}
		fmt.Fprintf(&b, "| `%s` | `%s - %s` | %s | (%g, %g, %g) | `%s` |\n", c.Name, c.Workspace, c.WorkspaceCategory, size,
			c.Offset[0], c.Offset[1], c.Offset[2], c.Source)
	}
	b.WriteString("\n| category | articulated: thresholds on qpos | sites | footprint radius (m) | source |\n|---|---|---|---|---|\n")
	for _, c := range categories {
		var th []string
		if j := c.Joint; j != nil {
			for _, x := range []struct {
				name string
				t    *Threshold
			}{{"Open", j.Open}, {"Close", j.Close}, {"TurnOn", j.TurnOn}, {"TurnOff", j.TurnOff}} {
				if x.t != nil {
					th = append(th, fmt.Sprintf("%s: q %s %g", x.name, x.t.Op, x.t.Value))
				}
			}
		}
		var sites []string
		for _, s := range c.Sites {
			sites = append(sites, "`"+s.Name+"`")
		}
		radius := fmt.Sprintf("%.4f", c.Radius)
		if c.Radius == 0 {
			radius = fmt.Sprintf("%.4f (default)", DefaultRadius)
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s | `%s` |\n", c.Name, strings.Join(th, ", "), strings.Join(sites, " "), radius, c.Source)
	}
	return b.String()
}
