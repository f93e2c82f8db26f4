//go:build !unix

package robolab

import "errors"

func mkfifo(string) error { return errors.New("no FIFOs") }
