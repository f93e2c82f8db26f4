package batch

import (
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"
)

// Shard selects a deterministic 1/Count of a batch's items: item keys
// are hashed (FNV-1a, 64 bits) and shard Index takes the keys whose hash
// is Index modulo Count. Count shards with indexes 0..Count-1 cover every
// item exactly once, whatever machine each runs on. The zero Shard takes
// everything.
type Shard struct {
	Index, Count int
}

// ParseShard reads "I/N" (0 <= I < N), as --shard takes it. Indexes
// start at 0, as Kubernetes' JOB_COMPLETION_INDEX does.
func ParseShard(s string) (Shard, error) {
	if s == "" {
		return Shard{}, nil
	}
	is, ns, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(strings.TrimSpace(is))
	n, err2 := strconv.Atoi(strings.TrimSpace(ns))
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 0 || i >= n {
		return Shard{}, fmt.Errorf("--shard %q: want I/N with 0 <= I < N, as 0/4 .. 3/4", s)
	}
	return Shard{Index: i, Count: n}, nil
}

// All reports whether the shard takes every item.
func (s Shard) All() bool { return s.Count <= 1 }

// Keep reports whether the item with this key belongs to the shard.
func (s Shard) Keep(key string) bool {
	if s.All() {
		return true
	}
	h := fnv.New64a()
	h.Write([]byte(key))
	return h.Sum64()%uint64(s.Count) == uint64(s.Index)
}

func (s Shard) String() string {
	if s.All() {
		return "all"
	}
	return fmt.Sprintf("%d/%d", s.Index, s.Count)
}

// Select keeps the items of the shard, by key, in order.
func Select[T any](s Shard, items []T, key func(T) string) []T {
	if s.All() {
		return items
	}
	var out []T
	for _, it := range items {
		if s.Keep(key(it)) {
			out = append(out, it)
		}
	}
	return out
}
