package game

import "math/bits"

const sqWords = (MaxSide*MaxSide + 63) / 64

// SqSet is a set of squares (a relevance zone, a candidate list).
type SqSet struct{ w [sqWords]uint64 }

// Add puts s in the set.
func (z *SqSet) Add(s Square) { z.w[s>>6] |= 1 << (uint(s) & 63) }

// AddAll puts every square of sq in the set.
func (z *SqSet) AddAll(sq ...Square) {
	for _, s := range sq {
		z.Add(s)
	}
}

// Has reports whether s is in the set.
func (z *SqSet) Has(s Square) bool { return z.w[s>>6]&(1<<(uint(s)&63)) != 0 }

// Union adds every square of o.
func (z *SqSet) Union(o *SqSet) {
	for i := range z.w {
		z.w[i] |= o.w[i]
	}
}

// Intersect keeps only the squares also in o.
func (z *SqSet) Intersect(o *SqSet) {
	for i := range z.w {
		z.w[i] &= o.w[i]
	}
}

// Len counts the squares.
func (z *SqSet) Len() int {
	n := 0
	for _, w := range z.w {
		n += bits.OnesCount64(w)
	}
	return n
}

// Squares lists the squares in increasing order.
func (z *SqSet) Squares() []Square {
	out := make([]Square, 0, z.Len())
	for i, w := range z.w {
		for w != 0 {
			t := bits.TrailingZeros64(w)
			out = append(out, Square(i*64+t))
			w &= w - 1
		}
	}
	return out
}

// SqSetOf builds a set from squares.
func SqSetOf(sq ...Square) SqSet {
	var z SqSet
	z.AddAll(sq...)
	return z
}
