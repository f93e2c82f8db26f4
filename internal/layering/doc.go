// Package layering holds no code: its test reads the module's import graph
// (go list) and checks that every import points down the levels written in
// docs/design.md ("Packages and their levels"), so an arrow climbing back
// up fails the build's tests rather than waiting for a reader to notice.
package layering
