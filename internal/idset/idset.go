// Package idset is a set of dense non-negative ids (a book's position
// ids): a bit per id, a map for an id too large for that. Standard library
// only.
package idset

// Set is a set of ids; the zero value is empty.
type Set struct {
	bits  []uint64
	large map[int64]bool
}

const maxBits = 1 << 28 // 32 MB of bits at most

// Has reports whether id is in the set.
func (s *Set) Has(id int64) bool {
	if id >= 0 && id < maxBits {
		i := int(id) / 64
		return i < len(s.bits) && s.bits[i]&(1<<(uint(id)%64)) != 0
	}
	return s.large[id]
}

// Add puts id in the set.
func (s *Set) Add(id int64) {
	if id >= 0 && id < maxBits {
		i := int(id) / 64
		if i >= len(s.bits) {
			s.bits = append(s.bits, make([]uint64, i+1-len(s.bits)+len(s.bits)/2)...)
		}
		s.bits[i] |= 1 << (uint(id) % 64)
		return
	}
	if s.large == nil {
		s.large = map[int64]bool{}
	}
	s.large[id] = true
}

// Del removes id from the set.
func (s *Set) Del(id int64) {
	if id >= 0 && id < maxBits {
		if i := int(id) / 64; i < len(s.bits) {
			s.bits[i] &^= 1 << (uint(id) % 64)
		}
		return
	}
	delete(s.large, id)
}
