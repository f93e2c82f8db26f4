// Command bddl parses, formats, explains, validates and checks BDDL activity
// definitions. Run `bddl --help` for the command list.
package main

import "os"

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
