//go:build !unix

package robolab

import "os"

// keepOwner does nothing where files have no Unix owner.
func keepOwner(*os.File, os.FileInfo) {}
