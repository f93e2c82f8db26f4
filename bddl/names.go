package bddl

import "strings"

// An instance name is a synset followed by "_" and a number, as in
// apple.n.01_1, or by "_*", the wildcard of newer BEHAVIOR-1K definitions
// that stands for every such object of a room.

// SplitInstance splits an instance name into its synset and its suffix (the
// number, or "*" for a wildcard). ok is false when name is not an instance.
func SplitInstance(name string) (synset, suffix string, ok bool) {
	i := strings.LastIndexByte(name, '_')
	if i <= 0 || i == len(name)-1 {
		return "", "", false
	}
	synset, suffix = name[:i], name[i+1:]
	if !IsSynsetName(synset) {
		return "", "", false
	}
	if suffix == "*" {
		return synset, suffix, true
	}
	for j := 0; j < len(suffix); j++ {
		if suffix[j] < '0' || suffix[j] > '9' {
			return "", "", false
		}
	}
	return synset, suffix, true
}

// IsInstanceName reports whether name has the shape of an instance, as
// SplitInstance would split it. The parser asks it of every term, so it
// reads the name once, from the end, instead of splitting it.
func IsInstanceName(name string) bool {
	i := len(name) - 1
	switch {
	case i < 0:
		return false
	case name[i] == '*':
		i--
	default:
		for i >= 0 && '0' <= name[i] && name[i] <= '9' {
			i--
		}
		if i == len(name)-1 {
			return false // no suffix
		}
	}
	if i <= 0 || name[i] != '_' {
		return false
	}
	// The synset before the '_': LEMMA.POS.NN with a non-empty lemma
	// and part of speech, as IsSynsetName has it.
	j := i - 1
	for j >= 0 && '0' <= name[j] && name[j] <= '9' {
		j--
	}
	if j == i-1 || j < 0 || name[j] != '.' {
		return false
	}
	k := j - 1
	for k >= 0 && name[k] != '.' {
		k--
	}
	return k > 0 && k < j-1
}

// IsWildcard reports whether name is a wildcard instance such as cabinet.n.01_*.
func IsWildcard(name string) bool {
	return strings.HasSuffix(name, "_*") && IsInstanceName(name)
}

// IsSynsetName reports whether name has a synset's shape: lemma.pos.NN,
// e.g. apple.n.01 or half__apple.n.01.
func IsSynsetName(name string) bool {
	last := strings.LastIndexByte(name, '.')
	if last <= 0 || last == len(name)-1 {
		return false
	}
	for j := last + 1; j < len(name); j++ {
		if name[j] < '0' || name[j] > '9' {
			return false
		}
	}
	pos := strings.LastIndexByte(name[:last], '.')
	return pos > 0 && pos < last-1
}
