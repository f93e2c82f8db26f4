package predicates

// forpairs and fornpairs. The body is evaluated for every pair (row
// object, column object) of distinct objects. Two readings:
//
// The reference's cover test (default, SEMANTICS.md B §1.1): at least L
// rows have a True entry and at least L columns have a True entry, with
// L = min(rows, columns) for forpairs and N for fornpairs. The reference
// builds each row without the row's own object and counts columns by
// position within the row and takes the column count from the first row;
// we do the same, so a pair quantifier over one synset matches it too.
//
// StrictPairs: a one-to-one matching of L pairs of distinct objects whose
// entries are True, L being for forpairs the largest number of pairs of
// distinct objects the domains allow (min(rows, columns) unless they
// share objects).
//
// Both fold three-valued: True when the definite entries (True) pass,
// False when even the possible entries (True or Unknown) fail, else
// Unknown; learning an entry can only settle the answer, never flip it.

func (m *machine) pairs(i int32, n *node) Truth {
	rows, cols := m.p.domains[n.dom[0]], m.p.domains[n.dom[1]]
	nr, nc := len(rows), len(cols)
	sc := &m.s.scratch
	cells := sc.truths[n.tbuf : int(n.tbuf)+nr*nc]
	rowCov := sc.truths[int(n.tbuf)+nr*nc : int(n.tbuf)+nr*nc+nr]
	colCov := sc.truths[int(n.tbuf)+nr*nc+nr : int(n.tbuf)+nr*nc+nr+nc]
	for k := range rowCov {
		rowCov[k] = False
	}
	for k := range colCov {
		colCov[k] = False
	}
	s1, s2 := n.slot[0], n.slot[1]
	firstRow := nc // the column count the reference takes from row 0
	for r, a := range rows {
		m.frame[s1] = a
		pos := 0
		for c, b := range cols {
			if a == b {
				cells[r*nc+c] = False
				if r == 0 {
					firstRow--
				}
				continue
			}
			m.frame[s2] = b
			v := m.eval(i + 1)
			cells[r*nc+c] = v
			// Coverage marks: True beats Unknown beats no entry (False).
			rowCov[r] = cover(rowCov[r], v)
			colCov[pos] = cover(colCov[pos], v)
			pos++
		}
	}
	need := int(n.n) // fornpairs: N; forpairs in strict mode: see pairsSize
	if m.p.opts.StrictPairs {
		ints := sc.ints[n.ibuf : int(n.ibuf)+2*nc]
		definite := maxMatching(cells, nr, nc, False, ints)
		if definite >= need {
			return True
		}
		possible := maxMatching(cells, nr, nc, True, ints)
		return atLeast(definite, possible, need)
	}
	if n.op == irForPairs {
		need = min(nr, firstRow)
	}
	dr, pr := coverCounts(rowCov)
	dc, pc := coverCounts(colCov)
	return atLeast(dr, pr, need).And(atLeast(dc, pc, need))
}

// cover merges an entry into a row or column mark, which starts False
// (no True or Unknown entry yet): True is the strongest, then Unknown.
func cover(mark, v Truth) Truth {
	switch {
	case v == True:
		return True
	case v == Unknown && mark == False:
		return Unknown
	}
	return mark
}

// coverCounts counts the marks that are definitely covered (True) and
// possibly covered (True or Unknown).
func coverCounts(marks []Truth) (definite, possible int) {
	for _, m := range marks {
		switch m {
		case True:
			definite++
			possible++
		case Unknown:
			possible++
		}
	}
	return
}

// maxMatching is the size of a maximum matching of rows to columns over
// the entries that are True, or with possible set, True or Unknown
// (Kuhn's augmenting paths; the matrices are small). ints holds 2*nc
// scratch ints.
func maxMatching(cells []Truth, nr, nc int, possible Truth, ints []int32) int {
	matchCol, seen := ints[:nc], ints[nc:2*nc]
	for c := range matchCol {
		matchCol[c] = -1
		seen[c] = -1
	}
	size := 0
	for r := 0; r < nr; r++ {
		if augment(cells, nc, r, possible == True, matchCol, seen, int32(r)) {
			size++
		}
	}
	return size
}

func augment(cells []Truth, nc, r int, possible bool, matchCol, seen []int32, stamp int32) bool {
	for c := 0; c < nc; c++ {
		v := cells[r*nc+c]
		if !(v == True || possible && v == Unknown) || seen[c] == stamp {
			continue
		}
		seen[c] = stamp
		if matchCol[c] < 0 || augment(cells, nc, int(matchCol[c]), possible, matchCol, seen, stamp) {
			matchCol[c] = int32(r)
			return true
		}
	}
	return false
}

// pairsSize is the largest number of disjoint pairs of distinct objects
// two domains allow: the L that strict forpairs asks to match.
func pairsSize(rows, cols []ObjectID) int {
	cells := make([]Truth, len(rows)*len(cols))
	for r, a := range rows {
		for c, b := range cols {
			if a != b {
				cells[r*len(cols)+c] = True
			}
		}
	}
	return maxMatching(cells, len(rows), len(cols), False, make([]int32, 2*len(cols)))
}
