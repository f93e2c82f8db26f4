package recording

import (
	"strconv"
	"strings"
)

// ErrorText is how the recording layouts' errors read: "file: where: row
// N: msg", where and the row left out when empty or negative.
func ErrorText(file, where string, row int, msg string) string {
	var b strings.Builder
	b.WriteString(file)
	b.WriteString(": ")
	if where != "" {
		b.WriteString(where)
		b.WriteString(": ")
	}
	if row >= 0 {
		b.WriteString("row ")
		b.WriteString(strconv.Itoa(row))
		b.WriteString(": ")
	}
	b.WriteString(msg)
	return b.String()
}
