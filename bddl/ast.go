package bddl

import (
	"strings"
	"unicode/utf8"
)

// Ident is a name as written in the source.
type Ident struct {
	Name  string `json:"name"`
	Range Range  `json:"range"`
}

// Key is the name as BDDL compares it: names are case-insensitive, as in the
// reference, which lower-cases whole files before parsing.
func (id Ident) Key() string { return Fold(id.Name) }

// Fold lower-cases s, as the reference lower-cases whole files, without
// allocating when s has nothing to lower.
func Fold(s string) string {
	// Eight bytes at a time: a byte in 'A'..'Z' gets its top bit from
	// adding 0x80-'A' but not from adding 0x80-'Z'-1; a non-ASCII byte has
	// it already. Bytes below 0x80 never carry into their neighbours.
	i := 0
	for ; i+8 <= len(s); i += 8 {
		w := uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
			uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
		if (w|(w+0x3f3f3f3f3f3f3f3f)&^(w+0x2525252525252525))&0x8080808080808080 != 0 {
			break
		}
	}
	for ; i < len(s); i++ {
		if c := s[i]; 'A' <= c && c <= 'Z' || c >= utf8.RuneSelf {
			// strings.ToLower returns s itself when no rune changes.
			return strings.ToLower(s)
		}
	}
	return s
}

// Problem is a BDDL problem file: one activity definition.
type Problem struct {
	Source *Source `json:"-"`
	Range  Range   `json:"range"`
	Name   Ident   `json:"name"`
	Domain Ident   `json:"domain"`
	// Objects are the type lines of :objects in source order.
	Objects []*ObjectDecl `json:"objects"`
	// Init holds the ground literals of :init: atoms and negated atoms.
	Init []Formula `json:"init"`
	// Goal is nil when the file has no :goal section.
	Goal Formula `json:"goal"`
	// Sections records where each section was written, by keyword
	// (":objects", ":init", ...), for diagnostics about a whole section.
	Sections []Section `json:"sections"`
	Comments []Comment `json:"comments,omitempty"`
	// Libero is set for problems in the LIBERO dialect (:domain robosuite):
	// what that dialect adds to the common sections.
	Libero *Libero `json:"libero,omitempty"`
	// NumNodes is the number of formula nodes; their IDs are 0..NumNodes-1,
	// assigned in source order, so side tables can be plain slices.
	NumNodes int `json:"num_nodes"`
}

// Section locates one top-level section of a file.
type Section struct {
	Keyword Ident `json:"keyword"`
	Range   Range `json:"range"`
}

// Section returns the section with the given keyword (lower case, with its
// colon), if the file has one.
func (p *Problem) Section(keyword string) (Section, bool) {
	for _, s := range p.Sections {
		if s.Keyword.Key() == keyword {
			return s, true
		}
	}
	return Section{}, false
}

// ObjectDecl is one line of :objects: instances followed by "- type".
type ObjectDecl struct {
	Instances []Ident `json:"instances"`
	Type      Ident   `json:"type"`
	Range     Range   `json:"range"`
}

// Comment is a ";" comment, kept so the formatter loses nothing.
type Comment struct {
	Text  string `json:"text"` // including the leading ';'
	Range Range  `json:"range"`
}

// Domain is a BDDL domain file: the predicates problems may use.
type Domain struct {
	Source       *Source          `json:"-"`
	Range        Range            `json:"range"`
	Name         Ident            `json:"name"`
	Requirements []Ident          `json:"requirements"`
	Predicates   []*PredicateDecl `json:"predicates"`
	Sections     []Section        `json:"sections"`
	Comments     []Comment        `json:"comments,omitempty"`
}

// PredicateDecl declares a predicate and its parameters, e.g. (ontop ?obj1 ?obj2).
type PredicateDecl struct {
	Name   Ident   `json:"name"`
	Params []Ident `json:"params"` // variable names without '?'
	Range  Range   `json:"range"`
}

// Predicate returns the declaration of the named predicate, if any.
func (d *Domain) Predicate(name string) (*PredicateDecl, bool) {
	name = Fold(name)
	for _, p := range d.Predicates {
		if p.Name.Key() == name {
			return p, true
		}
	}
	return nil, false
}

// NodeInfo is what every formula node carries: a stable id (unique within
// its problem, in source order) and its source range.
type NodeInfo struct {
	ID    int   `json:"id"`
	Range Range `json:"range"`
}

// Info returns the node's id and range.
func (n *NodeInfo) Info() *NodeInfo { return n }

// Formula is a node of :init or :goal. The concrete types are *Atom, *Not,
// *And, *Or, *Imply and *Quant.
type Formula interface {
	Info() *NodeInfo
	formula()
}

// Atom is a predicate applied to terms: (ontop ?apple.n.01_1 table.n.02_1).
type Atom struct {
	NodeInfo
	Pred Ident  `json:"pred"`
	Args []Term `json:"args"`
}

// Not negates its operand.
type Not struct {
	NodeInfo
	X Formula `json:"x"`
}

// And holds when all operands hold.
type And struct {
	NodeInfo
	Xs []Formula `json:"xs"`
}

// Or holds when some operand holds.
type Or struct {
	NodeInfo
	Xs []Formula `json:"xs"`
}

// Imply is (imply If Then), that is (or (not If) Then).
type Imply struct {
	NodeInfo
	If   Formula `json:"if"`
	Then Formula `json:"then"`
}

// QuantKind names a quantifier.
type QuantKind uint8

const (
	Forall    QuantKind = iota // (forall (?x - t) body)
	Exists                     // (exists (?x - t) body)
	ForN                       // (forn (N) (?x - t) body): exactly N
	ForPairs                   // (forpairs (?x - t) (?y - u) body)
	ForNPairs                  // (fornpairs (N) (?x - t) (?y - u) body)
)

var quantKeywords = [...]string{"forall", "exists", "forn", "forpairs", "fornpairs"}

func (k QuantKind) String() string { return quantKeywords[k] }

// Counted reports whether the quantifier takes a count N.
func (k QuantKind) Counted() bool { return k == ForN || k == ForNPairs }

// Pairs reports whether the quantifier binds a pair of variables.
func (k QuantKind) Pairs() bool { return k == ForPairs || k == ForNPairs }

// Quant is a quantified formula. Vars has one declaration, or two for the
// pair quantifiers.
type Quant struct {
	NodeInfo
	Kind QuantKind `json:"kind"`
	// N is the count of forn and fornpairs, written "(N)".
	N      int       `json:"n,omitempty"`
	NRange Range     `json:"n_range"`
	Vars   []VarDecl `json:"vars"`
	Body   Formula   `json:"body"`
}

// VarDecl declares a quantified variable: (?x - type).
type VarDecl struct {
	Var   Ident `json:"var"` // without the '?'
	Type  Ident `json:"type"`
	Range Range `json:"range"`
}

func (*Atom) formula()  {}
func (*Not) formula()   {}
func (*And) formula()   {}
func (*Or) formula()    {}
func (*Imply) formula() {}
func (*Quant) formula() {}

// TermKind says what a term names. The parser classifies terms lexically;
// the checker confirms the classification against :objects.
type TermKind uint8

const (
	// InstanceTerm names an object instance such as apple.n.01_1 (written
	// with or without '?', as both spellings occur in goals).
	InstanceTerm TermKind = iota
	// VariableTerm names a variable; bound by an enclosing quantifier unless
	// the checker reports it.
	VariableTerm
	// ConstantTerm is a bare name that is not an instance, such as a room
	// type in (inroom sink.n.01_1 kitchen).
	ConstantTerm
)

func (k TermKind) String() string {
	return [...]string{"instance", "variable", "constant"}[k]
}

// Term is an argument of an atom.
type Term struct {
	Name     string   `json:"name"` // as written, without the '?'
	Question bool     `json:"question,omitempty"`
	Kind     TermKind `json:"kind"`
	Range    Range    `json:"range"`
}

// Key is the term's name as BDDL compares it.
func (t Term) Key() string { return Fold(t.Name) }

// Text is the term as written, with its '?' if it had one.
func (t Term) Text() string {
	if t.Question {
		return "?" + t.Name
	}
	return t.Name
}
