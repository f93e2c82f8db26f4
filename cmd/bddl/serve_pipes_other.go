//go:build !unix

package main

import "os"

// pollable: pipes are left as they are here.
func pollable(any) (*os.File, func(), bool) { return nil, nil, false }
