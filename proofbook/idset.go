package proofbook

// idSet is a set of position ids: a bit per id (ids are dense, from 1),
// a map for an id too large for that.
type idSet struct {
	bits  []uint64
	large map[PosID]bool
}

const idSetBits = 1 << 28 // 32 MB of bits at most

func (s *idSet) has(id PosID) bool {
	if id >= 0 && id < idSetBits {
		i := int(id) / 64
		return i < len(s.bits) && s.bits[i]&(1<<(uint(id)%64)) != 0
	}
	return s.large[id]
}

func (s *idSet) add(id PosID) {
	if id >= 0 && id < idSetBits {
		i := int(id) / 64
		if i >= len(s.bits) {
			s.bits = append(s.bits, make([]uint64, i+1-len(s.bits)+len(s.bits)/2)...)
		}
		s.bits[i] |= 1 << (uint(id) % 64)
		return
	}
	if s.large == nil {
		s.large = map[PosID]bool{}
	}
	s.large[id] = true
}

func (s *idSet) del(id PosID) {
	if id >= 0 && id < idSetBits {
		if i := int(id) / 64; i < len(s.bits) {
			s.bits[i] &^= 1 << (uint(id) % 64)
		}
		return
	}
	delete(s.large, id)
}
