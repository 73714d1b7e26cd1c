package threat

import (
	"c6book/engine/game"
)

// Relevance zones. The zone of a proven position, at tolerance i, is a set
// of squares such that for any i extra defender stones placed on empty
// squares outside it, the attacker still wins by the same strategy. It is
// built bottom-up over the proof tree:
//
//   - six (attacker to move with a threat window): the empties of the window
//     filled, and the empties of every defender-active window with at most i
//     empties (i extra stones there would have made six for the defender);
//   - attacker move m (AT-1): m's squares, the child's zone, and the empties
//     of every defender-active window with at most p+i empties (i extra
//     stones there would give the defender a threat the strategy does not
//     block);
//   - after the attacker's move (T3/T2/T1): the empties of all attacker
//     threat windows, the defender windows as above, and the union of the
//     zones of all defender replies; a seminull reply's zone is taken at
//     tolerance i+1 (its skipped stone is one more extra stone: the
//     left shift of the paper's Z2 -> Z1).

// zoneOf returns the zone of proven node n at tolerance tol; the board holds
// n's position.
func (s *search) zoneOf(n *pnode, tol int) *game.SqSet {
	if n.alias != nil {
		return s.zoneOf(n.alias, tol)
	}
	for zm := n.zones; zm != nil; zm = zm.next {
		if int(zm.tol) == tol {
			return zm.zone
		}
	}
	z := new(game.SqSet)
	p := s.b.Rules().P
	b := s.b
	switch {
	case !n.and && n.six:
		if mv, ok := b.WinningMove(s.a); ok {
			for i := 0; i < mv.Len(); i++ {
				z.Add(mv.At(i))
			}
		}
		b.AddDefenderWindows(z, s.a, tol)
	case !n.and:
		var c *pnode
		for _, k := range n.kids {
			if k.proven() {
				c = k
				break
			}
		}
		if c == nil {
			return z // not proven: no zone (never happens for a proof)
		}
		b.AddDefenderWindows(z, s.a, p+tol)
		for i := 0; i < c.move.Len(); i++ {
			z.Add(c.move.At(i))
		}
		s.apply(c)
		z.Union(s.zoneOf(c, tol))
		s.unapply(c)
	default:
		b.AddThreatWindows(z, s.a)
		b.AddDefenderWindows(z, s.a, p+tol)
		if int(n.threats) <= p {
			for _, k := range n.kids {
				kt := tol
				if k.semi {
					kt = tol + 1
				}
				s.apply(k)
				z.Union(s.zoneOf(k, kt))
				s.unapply(k)
			}
		}
	}
	n.zones = &zoneMemo{tol: int8(tol), zone: z, next: n.zones}
	return z
}

// strategy extracts the solution tree of proven OR node n (board at n).
func (s *search) strategy(n *pnode, tol int) *Strategy {
	if n.alias != nil {
		st := s.strategy(n.alias, tol)
		return st
	}
	zone := s.zoneOf(n, tol).Squares()
	if n.six {
		mv, _ := s.b.WinningMove(s.a)
		return &Strategy{Move: mv, Threats: s.b.Rules().P + 1, Six: true, Zone: zone}
	}
	var c *pnode
	for _, k := range n.kids {
		if k.proven() {
			c = k
			break
		}
	}
	if c == nil {
		return nil
	}
	st := &Strategy{Move: c.move, Threats: int(c.threats), Zone: zone}
	s.apply(c)
	for _, k := range c.kids {
		kt := tol
		if k.semi {
			kt = tol + 1
		}
		s.apply(k)
		st.Replies = append(st.Replies, Reply{Move: k.move, Seminull: k.semi, Then: s.strategy(k, kt)})
		s.unapply(k)
	}
	s.unapply(c)
	return st
}
