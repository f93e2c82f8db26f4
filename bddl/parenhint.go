package bddl

import (
	"fmt"
	"slices"
	"unsafe"
)

// A missing or extra ')' in a multi-line form is found by the parser only
// where the count runs out: at the end of the file, or where a section turns
// up outside (define ...). The layout usually tells where the author meant
// it: a ')' alone on its line sits under the '(' it closes. Like the
// indentation hints of compilers for brace languages, parenHints reads that
// layout to point at the form that lacks its ')' or at the ')' too many.

// parenHint is one repair the layout suggests.
type parenHint struct {
	extra   bool  // delete the ')' at at; otherwise the form opened at at lacks its ')'
	at      Range // the ')' to delete, or the opening '(' and its head
	head    string
	closes  Pos    // extra: the '(' it closes; missing: the ')' that lines up elsewhere
	aligned Pos    // missing: the '(' that the misplaced ')' lines up with
	alHead  string // and that form's head
}

type hintFrame struct {
	open Pos
	head string
	// lastChild is the most recent form closed directly inside this one,
	// and where it was closed, so an extra ')' can be found after the fact.
	lastChild     *hintFrame
	closedAt      Pos
	closedAligned bool
}

// parenHints simulates the parentheses of src with the layout as a guide.
// It returns the repairs and whether they make every ')' line up with its
// '(' and the whole file balanced; callers trust the hints only then.
func parenHints(src []byte) ([]parenHint, bool) {
	text := unsafe.String(unsafe.SliceData(src), len(src)) // heads share src's memory
	var (
		hints []parenHint
		stack []*hintFrame
		// closers alone on their line: under their '(' or elsewhere
		aligned, misaligned int
		line                int32 = 1
		lineStart           int
	)
	ownLine := func(i int) bool { // ')' at i is the only token on its line
		for j := i - 1; j >= lineStart; j-- {
			if src[j] != ' ' && src[j] != '\t' {
				return false
			}
		}
		for j := i + 1; j < len(src) && src[j] != '\n'; j++ {
			switch src[j] {
			case ' ', '\t', '\r':
			case ';':
				return true
			default:
				return false
			}
		}
		return true
	}
	pop := func(at Pos, aligned bool) {
		f := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		f.closedAt, f.closedAligned = at, aligned
		if len(stack) > 0 {
			stack[len(stack)-1].lastChild = f
		}
	}
	for i := 0; i < len(src); i++ {
		c := src[i]
		pos := Pos{Offset: int32(i), Line: line, Col: int32(i-lineStart) + 1}
		switch c {
		case '\n':
			line++
			lineStart = i + 1
		case ';':
			for i+1 < len(src) && src[i+1] != '\n' {
				i++
			}
		case '(':
			j := i + 1
			for j < len(src) && j-i <= 40 && !isHintDelim(src[j]) {
				j++
			}
			// Deeper than any formula may nest: the parser reports that,
			// and no layout reading would be trusted.
			if len(stack) > maxDepth+8 {
				return nil, false
			}
			stack = append(stack, &hintFrame{open: pos, head: text[i+1 : j]})
		case ')':
			own := ownLine(i)
			if len(stack) == 0 {
				hints = append(hints, parenHint{extra: true, at: Range{Start: pos, End: pos.advance(1)}})
				if len(hints) > 4*maxErrors { // far too many repairs to trust
					return nil, false
				}
				continue
			}
			top := stack[len(stack)-1]
			if !own || top.open.Col == pos.Col {
				if own {
					aligned++
				}
				pop(pos, own)
				continue
			}
			misaligned++
			if pos.Col < top.open.Col {
				// The ')' sits left of its '(': an inner form lacks its ')'.
				k := len(stack) - 2
				for k >= 0 && stack[k].open.Col != pos.Col {
					k--
				}
				if k < 0 {
					return hints, false
				}
				if len(hints)+len(stack)-1-k > maxErrors {
					return hints, false // too many to be a slip of layout
				}
				for len(stack)-1 > k {
					f := stack[len(stack)-1]
					hints = append(hints, parenHint{at: Range{Start: f.open, End: f.open.advance(1 + len(f.head))},
						head: f.head, closes: pos, aligned: stack[k].open, alHead: stack[k].head})
					pop(pos, false)
				}
				pop(pos, true)
				continue
			}
			// The ')' sits right of its '(': an earlier ')' closed the form
			// it lines up with too soon. Reopen that form.
			child := top.lastChild
			if child == nil || child.open.Col != pos.Col || child.closedAligned {
				return hints, false
			}
			if len(hints) >= maxErrors {
				return hints, false
			}
			hints = append(hints, parenHint{extra: true, at: Range{Start: child.closedAt, End: child.closedAt.advance(1)},
				head: child.head, closes: child.open})
			top.lastChild = nil
			stack = append(stack, child)
			pop(pos, true)
		}
	}
	if len(stack) > 0 { // the outermost open form stands for all of them
		f := stack[0]
		hints = append(hints, parenHint{at: Range{Start: f.open, End: f.open.advance(1 + len(f.head))}, head: f.head})
	}
	// A slip is rare against a layout kept elsewhere; many misaligned
	// closers mean a different style (closers indented with the content),
	// which this reading would misjudge.
	return hints, misaligned <= 2 || 2*misaligned <= aligned
}

func isHintDelim(c byte) bool {
	switch c {
	case ' ', '\t', '\r', '\n', '(', ')', ';':
		return true
	}
	return false
}

// advance is the position n bytes to the right on the same line.
func (p Pos) advance(n int) Pos {
	return Pos{Offset: p.Offset + int32(n), Line: p.Line, Col: p.Col + int32(n)}
}

// diagnostic renders a hint as the error that replaces the parser's own.
func (h parenHint) diagnostic() *Diagnostic {
	if h.extra {
		d := &Diagnostic{Severity: Error, Code: h.code(), Subject: h.at,
			Summary: "extra ')' after the end of the definition",
			Detail:  "delete this ')': the (define ...) form is already closed"}
		if h.head != "" {
			d.Summary = fmt.Sprintf("extra ')' closes (%s from %s too soon", h.head, h.closes)
			d.Detail = fmt.Sprintf("delete this ')': a later ')' lines up with (%s and closes it", h.head)
		}
		return d
	}
	d := &Diagnostic{Severity: Error, Code: h.code(), Subject: h.at,
		Summary: fmt.Sprintf("(%s is not closed", h.head),
		Detail:  "add the missing ')' at the end of the file"}
	if h.closes != (Pos{}) {
		d.Detail = fmt.Sprintf("add its ')' before line %d: the ')' at %s lines up with (%s at %s and closes that",
			h.closes.Line, h.closes, h.alHead, h.aligned)
	}
	return d
}

// placeParenErrors replaces the parenthesis errors the parser found only by
// counting with the ones the layout points at, when the layout accounts for
// every parenthesis in the file; otherwise it keeps the parser's.
func placeParenErrors(src []byte, diags Diagnostics) Diagnostics {
	if !slices.ContainsFunc(diags, func(d *Diagnostic) bool { return d.byCount }) {
		return diags
	}
	hints, ok := parenHints(src)
	// Only a ')' that lines up with the wrong '(' is evidence the parser
	// lacks; a form left open at the end or a ')' after the definition is
	// reported as well by the parser itself.
	if !ok || !slices.ContainsFunc(hints, parenHint.fromLayout) {
		return diags
	}
	// Where the parser and the layout agree on the place, the parser's
	// message stays: it knows more, such as the section that cut a form off.
	agrees := func(d *Diagnostic) bool {
		return slices.ContainsFunc(hints, func(h parenHint) bool {
			return d.Code == h.code() && d.Subject.Start == h.at.Start
		})
	}
	out := slices.DeleteFunc(diags, func(d *Diagnostic) bool { return d.byCount && !agrees(d) })
	for _, h := range hints {
		if !slices.ContainsFunc(out, func(d *Diagnostic) bool { return d.Code == h.code() && d.Subject.Start == h.at.Start }) {
			out = append(out, h.diagnostic())
		}
	}
	return out
}

func (h parenHint) code() string {
	if h.extra {
		return codeExtraParen
	}
	return codeUnclosedParen
}

// fromLayout tells whether the hint rests on a misaligned ')'.
func (h parenHint) fromLayout() bool { return h.closes != (Pos{}) }
