package view

import (
	"bytes"
	_ "embed"
	"html/template"
	"path/filepath"

	"github.com/openbddl/bddl/internal/termsafe"
)

//go:embed page.html.tmpl
var pageTemplate string

var page = template.Must(template.New("view").Parse(pageTemplate))

// Render fills the page template with the data, as JSON in a script
// element (html/template escapes it for that context).
func Render(d *Data) ([]byte, error) {
	var buf bytes.Buffer
	err := page.Execute(&buf, struct {
		Title string
		Data  *Data
	}{Title: termsafe.Text(d.Activity + ": " + filepath.Base(d.Episode)), Data: d})
	return buf.Bytes(), err
}
