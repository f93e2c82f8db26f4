package bddl

// Stable codes of syntax diagnostics. Tools and tests match on these, so a
// code never changes meaning once released.
const (
	codeEmptyFile        = "empty-file"
	codeInvalidChar      = "invalid-character"
	codeInvalidUTF8      = "invalid-utf8"
	codeUnexpectedToken  = "unexpected-token"
	codeUnclosedParen    = "unclosed-paren"
	codeExtraParen       = "extra-paren"
	codeOutsideDefine    = "outside-define"
	codeUnknownSection   = "unknown-section"
	codeMissingSection   = "missing-section"
	codeDuplicateSection = "duplicate-section"
	codeMisplacedSection = "misplaced-section"
	codeEmptyFormula     = "empty-formula"
	codeOperandCount     = "operand-count"
	codeMissingDecl      = "missing-declaration"
	codeBadDecl          = "bad-declaration"
	codeFornCount        = "forn-count"
	codeBareDash         = "bare-dash"
	codeMissingType      = "missing-type"
	codeTooDeep          = "too-deep"
	codeTooManyErrors    = "too-many-errors"
	codeGoalFormulas     = "goal-formulas"
	codeDuplicateDecl    = "duplicate-instance"
	codeReferenceTypes   = "duplicate-type-line"
)

// maxDepth bounds formula nesting so that no input can exhaust the stack;
// the deepest real definitions nest about ten levels.
const maxDepth = 500

// maxErrors caps the diagnostics of one file, as go/parser does: past it,
// later errors are mostly consequences of earlier ones.
const maxErrors = 25
