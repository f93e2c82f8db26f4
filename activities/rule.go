package activities

import (
	"github.com/openbddl/bddl/bddl"
)

// Rule is one named activity rule. Its Code is stable across releases: it
// is what tests, tools and the golden corpus summary match on.
type Rule struct {
	// Code is the stable identifier of the rule's findings, e.g. "unplaced".
	Code string
	// Name is the rule's family, one per source file: "placement",
	// "future", "alignment", ...
	Name string
	// Severity is the severity of the rule's findings.
	Severity bddl.Severity
	// Doc says what the rule checks, in one sentence, for the README table.
	Doc string
	// Fix says, in general, how to fix a finding; each finding carries a
	// specific fix.
	Fix string
	// Check runs the rule on one problem and reports through the Context.
	Check func(*Context)
}

// registry lists every activity rule in the order of the README table.
// Each file adds its rules by name here so the order is explicit.
var registry = []*Rule{
	ruleObjectNotInInit,
	ruleUnplaced,
	ruleAgentNotPlaced,
	rulePlacedTwice,
	ruleNegatedKinematic,
	ruleContradictoryInit,
	ruleDuplicateInit,
	ruleFutureNotInGoal,
	ruleFutureInInit,
	ruleRealNotFuture,
	ruleSubstanceInstances,
	ruleSpecificContainer,
	ruleInapplicable,
	ruleNotAttachable,
	ruleUnknownRoom,
	ruleNotAnInstance,
	ruleUnsourcedLiquid,
	ruleProblemName,
	ruleWildcardNotSceneObject,
	ruleWildcardUsage,
	ruleQuestionMarkInInit,
	ruleUnreachableGoal,
	ruleUnmadeFuture,
	ruleNoScene,
	ruleGoalHoldsInitially,
	ruleUnusedObject,
	ruleInconsistentQuestionMark,
}

// Rules returns every activity rule in table order. The slice is a copy;
// the rules are shared and must not be modified.
func Rules() []*Rule {
	return append([]*Rule(nil), registry...)
}

// LookupRule returns the rule with the given code.
func LookupRule(code string) (*Rule, bool) {
	for _, r := range registry {
		if r.Code == code {
			return r, true
		}
	}
	return nil, false
}
