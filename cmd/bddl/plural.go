package main

// plural is one or many by n, for counts in messages.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
