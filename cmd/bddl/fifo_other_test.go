//go:build !unix

package main

import "errors"

func mkfifoForTest(string) error { return errors.New("no FIFOs") }
