package bddl

import (
	"fmt"
	"strings"
)

// Every message of the checker, with its stable code, in one place.
const (
	codeUnknownDomain       = "unknown-domain"
	codeUnknownPredicate    = "unknown-predicate"
	codeArity               = "arity"
	codeUnknownSynset       = "unknown-synset"
	codeBadInstanceName     = "bad-instance-name"
	codeInstanceType        = "instance-type-mismatch"
	codeDuplicateInstance   = "duplicate-instance"
	codeDuplicateTypeLine   = "duplicate-type-line"
	codeVariableType        = "variable-type-mismatch"
	codeShadowedVariable    = "shadowed-variable"
	codeUndeclaredInstance  = "undeclared-instance"
	codeUnboundVariable     = "unbound-variable"
	codeInitNotGround       = "init-not-ground"
	codeInitNotLiteral      = "init-not-literal"
	codeUnknownQuantifiedOn = "quantifier-type-undeclared"
)

func didYouMean(suggestions []string) string {
	switch len(suggestions) {
	case 0:
		return ""
	case 1:
		return "did you mean " + suggestions[0] + "?"
	}
	return "did you mean one of " + strings.Join(suggestions, ", ") + "?"
}

func (c *checker) unknownDomain(id Ident) {
	c.errorf(id.Range, codeUnknownDomain, fmt.Sprintf("unknown domain %q", id.Name),
		"use one of "+strings.Join(EmbeddedDomainNames(), ", ")+", or pass the domain file with --domain")
}

func (c *checker) unknownPredicate(a *Atom) {
	var names []string
	for _, p := range c.domain.Predicates {
		names = append(names, p.Name.Key())
	}
	fix := didYouMean(closest(a.Pred.Key(), names, 3))
	if fix == "" {
		fix = "domain " + c.domain.Name.Name + " declares: " + strings.Join(names, " ")
	}
	c.errorf(a.Pred.Range, codeUnknownPredicate,
		fmt.Sprintf("predicate %s is not declared by domain %s", a.Pred.Name, c.domain.Name.Name), fix)
}

func (c *checker) arity(a *Atom, decl *PredicateDecl) {
	params := make([]string, len(decl.Params))
	for i, p := range decl.Params {
		params[i] = "?" + p.Name
	}
	c.errorf(a.Range, codeArity,
		fmt.Sprintf("%s takes %d argument(s), found %d", a.Pred.Name, len(decl.Params), len(a.Args)),
		fmt.Sprintf("write (%s %s)", decl.Name.Name, strings.Join(params, " ")))
}

func (c *checker) unknownSynset(id Ident) {
	fix := didYouMean(c.schema.Suggest(id.Name))
	if fix == "" {
		fix = "use a synset of the knowledge base; `bddl kb search` finds them"
	}
	c.errorf(id.Range, codeUnknownSynset, fmt.Sprintf("unknown synset %s", id.Name), fix)
}

func (c *checker) badInstanceName(id Ident, typ string) {
	c.errorf(id.Range, codeBadInstanceName, fmt.Sprintf("%s is not an instance name", id.Name),
		fmt.Sprintf("name instances after their synset with a number, e.g. %s_1", typ))
}

func (c *checker) instanceType(id Ident, synset, typ string) {
	c.errorf(id.Range, codeInstanceType,
		fmt.Sprintf("instance %s is declared as %s, but its name says %s", id.Name, typ, synset),
		fmt.Sprintf("rename it %s_N or declare it under %s", typ, synset))
}

func (c *checker) duplicateInstance(id Ident, first Range) {
	c.errorf(id.Range, codeDuplicateInstance, fmt.Sprintf("instance %s is declared twice", id.Name),
		fmt.Sprintf("delete one; it is first declared at %s", first.Start))
}

func (c *checker) duplicateTypeLine(d *ObjectDecl, first *ObjectDecl) {
	c.warnf(d.Type.Range, codeDuplicateTypeLine, fmt.Sprintf("a second :objects line for %s", d.Type.Name),
		fmt.Sprintf("merge it with the line at %s", first.Range.Start))
}

func (c *checker) variableType(v VarDecl) {
	c.errorf(v.Var.Range, codeVariableType,
		fmt.Sprintf("variable ?%s is declared as %s", v.Var.Name, v.Type.Name),
		fmt.Sprintf("by convention a variable is named after its category: (?%s - %s)", v.Type.Name, v.Type.Name))
}

func (c *checker) shadowedVariable(v VarDecl, outer VarDecl) {
	c.errorf(v.Var.Range, codeShadowedVariable,
		fmt.Sprintf("variable ?%s shadows the one declared at %s", v.Var.Name, outer.Var.Range.Start),
		"rename one of them")
}

func (c *checker) undeclaredInstance(t Term) {
	var names []string
	for name := range c.instances {
		names = append(names, name)
	}
	fix := didYouMean(closest(t.Key(), names, 3))
	if fix == "" {
		fix = "declare it in :objects"
	}
	c.errorf(t.Range, codeUndeclaredInstance, fmt.Sprintf("%s is not declared in :objects", t.Name), fix)
}

func (c *checker) unboundVariable(t Term) {
	c.errorf(t.Range, codeUnboundVariable, fmt.Sprintf("variable ?%s is not bound by a quantifier", t.Name),
		fmt.Sprintf("declare it with (forall (?%s - SYNSET) ...) or name a declared instance", t.Name))
}

func (c *checker) initNotGround(t Term) {
	c.errorf(t.Range, codeInitNotGround, fmt.Sprintf(":init literal uses %s, which is not an instance", t.Text()),
		"the initial state lists ground facts: name instances declared in :objects")
}

func (c *checker) initNotLiteral(f Formula) {
	c.errorf(f.Info().Range, codeInitNotLiteral, ":init holds only literals",
		"write each fact as an atom or (not atom); connectives and quantifiers belong in :goal")
}

func (c *checker) quantifierTypeUndeclared(v VarDecl) {
	c.warnf(v.Type.Range, codeUnknownQuantifiedOn,
		fmt.Sprintf("no instance of %s is declared in :objects", v.Type.Name),
		"the quantifier ranges over the instances declared under exactly this synset; its domain is empty")
}
