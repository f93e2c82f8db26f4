package activities

import (
	"sync"

	"github.com/openbddl/bddl/kb"
)

// baseInfo holds the indexes the rules build from one knowledge base:
// built on first use, shared by every problem validated against it.
type baseInfo struct {
	base *kb.Base

	scenesOnce sync.Once
	scenes     *sceneIndex

	graphOnce sync.Once
	graph     *ruleGraph
}

// baseInfos maps *kb.Base to its *baseInfo. Bases are few and long-lived
// (one per process in the CLI), so entries are never evicted.
var baseInfos sync.Map

func infoFor(b *kb.Base) *baseInfo {
	if v, ok := baseInfos.Load(b); ok {
		return v.(*baseInfo)
	}
	v, _ := baseInfos.LoadOrStore(b, &baseInfo{base: b})
	return v.(*baseInfo)
}
