package c6book

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"c6book/engine/game"
	"c6book/engine/threat"
	"c6book/engine/verify"
	"c6book/proofcheck"
	"c6book/proofcheck/enginecert"
)

// Verdict is a verifier verdict in the form the book stores and everybody
// shows: the fields the book needs, moves and squares in one frame (the
// position's canonical frame in the book; the frame of the board it was
// computed on when FromEngine is given symmetry 0). Its JSON is the stored
// form: moves packed (see PackMove), squares as numbers (row*width+column).
type Verdict struct {
	Attacker      game.Color    `json:"attacker"`
	Status        Status        `json:"status"` // StatusProved or StatusOpen
	Order         int           `json:"order"`
	Lambda        int           `json:"lambda,omitempty"`
	Threats       int           `json:"threats,omitempty"` // attacker threats in the verified position
	Unsolved      []Unsolved    `json:"unsolved,omitempty"`
	AllUnsolved   bool          `json:"all_unsolved,omitempty"`
	OpenSeminull  []Unsolved    `json:"open_seminull,omitempty"`
	NullZone      []game.Square `json:"null_zone,omitempty"`
	SeminullZones []Zone        `json:"seminull_zones,omitempty"`
	Calls         int           `json:"calls"`
	Jobs          int           `json:"jobs,omitempty"` // positions handed to the solvers
	Nodes         int64         `json:"nodes"`
	Millis        int64         `json:"ms"`
	Engine        string        `json:"engine"`
	Note          string        `json:"note,omitempty"`
	// Tolerance is the number of extra defender stones the verdict's zone
	// tolerates: the position's defender stone deficit when it was
	// verified (a verdict at another tolerance proves nothing here).
	Tolerance int `json:"tol,omitempty"`
	// Zone is the verdict's relevance zone at Tolerance (see
	// verify.Verdict.Zone), united with the zone the checker computed.
	Zone []game.Square `json:"zone,omitempty"`
	// Covered lists the full defender moves refuted one by one (packed,
	// sorted).
	Covered []int64 `json:"covered,omitempty"`
	// Cert is the certificate, stored apart (verdict.cert): without it the
	// verdict proves nothing.
	Cert    *proofcheck.Cert `json:"-"`
	Created time.Time        `json:"-"`
}

// Unsolved is a defender move the verifier could not refute.
type Unsolved struct {
	Move   game.Move             `json:"move"`
	Reason threat.UnsolvedReason `json:"reason,omitempty"`
}

// ReasonText says in words why a defender move is unsolved (the reason
// codes of threat.Result.Reason and of the verifier).
func ReasonText(reason threat.UnsolvedReason) string {
	switch reason {
	case threat.ReasonBudget:
		return "out of budget (the node or time limit of its solver call)"
	case threat.ReasonExhausted:
		return "no win in the threat space (the solver searched it all)"
	case threat.ReasonLoss:
		return "the defender threatens more than the attacker can block"
	case threat.ReasonCancelled:
		return "cancelled before it was solved"
	case "":
		return "not refuted (no reason recorded)"
	}
	return string(reason)
}

// Why says in words why the move is unsolved.
func (u Unsolved) Why() string { return ReasonText(u.Reason) }

// Zone is the zone of a refuted seminull reply.
type Zone struct {
	Stone game.Square   `json:"stone"`
	Zone  []game.Square `json:"zone"`
}

// Proved reports whether the verdict proves the attacker's win by itself.
func (v *Verdict) Proved() bool { return v.Status == StatusProved }

// Elapsed is the verifier's running time.
func (v *Verdict) Elapsed() time.Duration { return time.Duration(v.Millis) * time.Millisecond }

// Items are the moves the stored verdict leaves to the book: every unsolved
// reply and every open seminull position. A defender-to-move position is
// proved when its verdict is proved and each item is a stored, proved child.
func (v *Verdict) Items() []game.Move {
	out := make([]game.Move, 0, len(v.Unsolved)+len(v.OpenSeminull))
	for _, u := range v.Unsolved {
		out = append(out, u.Move)
	}
	for _, u := range v.OpenSeminull {
		out = append(out, u.Move)
	}
	return out
}

// CheckedItems are the verdict's items in the form proofcheck's
// VerdictResult.CheckItems checks them (with AllUnsolved).
func (v *Verdict) CheckedItems() proofcheck.Items {
	return proofcheck.ItemsFrom(v.AllUnsolved, v.Unsolved, v.OpenSeminull, func(u Unsolved) game.Move { return u.Move })
}

// Closed reports whether the verdict's zone argument bounds the defence:
// the verifier ran to the end and did not leave every move open.
func (v *Verdict) Closed() bool {
	return !v.AllUnsolved && (v.Status == StatusProved || v.Status == StatusOpen)
}

// Certified reports whether the verdict can count in a proof: it bounds the
// defence, carries a certificate, and was made at tolerance tol.
func (v *Verdict) Certified(tol int) bool {
	return v.Closed() && v.Cert != nil && v.Tolerance == tol
}

// Refutes reports whether the verdict itself accounts for the full defender
// move (s, x) where s is one of its open seminull stones: x is a refuted
// seminull stone whose zone does not hold s, or the move was refuted one
// by one. (Neither stone being outside the null zone, the null strategy
// never applies; s blocks every threat window, so no immediate win does.)
func (v *Verdict) Refutes(s, x game.Square) bool {
	if _, ok := slices.BinarySearch(v.Covered, PackMove(game.NewMove(s, x))); ok {
		return true
	}
	for _, z := range v.SeminullZones {
		if z.Stone == x && !slices.Contains(z.Zone, s) {
			return true
		}
	}
	return false
}

// FromEngine is the one converter from the prover's raw verdict (computed
// on a board whose symmetry sym maps it to the frame wanted: the book's
// canonical frame, or 0 for the board's own) to a Verdict. lambda is the
// mode that was run.
func FromEngine(r game.Rules, sym int, v verify.Verdict, lambda int) Verdict {
	out := Verdict{
		Attacker: v.Attacker, Order: v.Order, Lambda: lambda, Threats: v.Threats,
		AllUnsolved: v.AllUnsolved, NullZone: slices.Clone(v.NullZone),
		Calls: v.Calls, Jobs: v.Jobs, Nodes: v.Nodes, Millis: v.Elapsed.Milliseconds(),
		Engine: v.Engine, Note: v.Note, Tolerance: v.Tolerance, Zone: slices.Clone(v.Zone),
		Cert: enginecert.FromVerdict(&v),
	}
	switch v.Status {
	case verify.StatusProved:
		out.Status = StatusProved
	case verify.StatusOpen:
		out.Status = StatusOpen
	}
	for _, c := range v.Covered {
		out.Covered = append(out.Covered, PackMove(c.Move))
	}
	for _, u := range v.Unsolved {
		out.Unsolved = append(out.Unsolved, Unsolved{Move: u.Move, Reason: u.Reason})
	}
	for _, u := range v.OpenSeminull {
		out.OpenSeminull = append(out.OpenSeminull, Unsolved{Move: u.Move, Reason: u.Reason})
	}
	for _, z := range v.SeminullZones {
		out.SeminullZones = append(out.SeminullZones, Zone{Stone: z.Stone, Zone: slices.Clone(z.Zone)})
	}
	return out.Transform(r, sym)
}

// Transform returns the verdict mapped by symmetry sym (certificate
// included); its lists come back sorted (NullZone, Zone and Covered by
// square or packed move, Unsolved and OpenSeminull by packed move,
// SeminullZones by stone, each zone by square), so that a verdict found in
// one frame and mapped into another reads the same as one found there.
func (v Verdict) Transform(r game.Rules, sym int) Verdict {
	sq := func(list []game.Square) []game.Square {
		if list == nil {
			return nil
		}
		out := make([]game.Square, len(list))
		for i, s := range list {
			out[i] = r.Transform(sym, s)
		}
		return out
	}
	un := func(list []Unsolved) []Unsolved {
		if list == nil {
			return nil
		}
		out := make([]Unsolved, len(list))
		for i, u := range list {
			out[i] = Unsolved{Move: r.TransformMove(sym, u.Move), Reason: u.Reason}
		}
		slices.SortStableFunc(out, func(a, b Unsolved) int { return compareMoves(a.Move, b.Move) })
		return out
	}
	out := v
	out.NullZone, out.Zone = sq(v.NullZone), sq(v.Zone)
	slices.Sort(out.NullZone)
	slices.Sort(out.Zone)
	out.Unsolved, out.OpenSeminull = un(v.Unsolved), un(v.OpenSeminull)
	out.SeminullZones = nil
	for _, z := range v.SeminullZones {
		zone := sq(z.Zone)
		slices.Sort(zone)
		out.SeminullZones = append(out.SeminullZones, Zone{Stone: r.Transform(sym, z.Stone), Zone: zone})
	}
	slices.SortStableFunc(out.SeminullZones, func(a, b Zone) int { return cmp.Compare(a.Stone, b.Stone) })
	out.Covered = nil
	for _, c := range v.Covered {
		m, err := UnpackMove(c)
		if err != nil {
			// Not a move: kept as it is (the book refuses such a verdict).
			out.Covered = append(out.Covered, c)
			continue
		}
		out.Covered = append(out.Covered, PackMove(r.TransformMove(sym, m)))
	}
	slices.Sort(out.Covered)
	if v.Cert != nil {
		out.Cert = v.Cert.Transform(r, sym)
	}
	return out
}

// compareMoves orders moves by their squares (the first, then the next),
// a shorter move first when one is the other's start: the verifier's
// order.
func compareMoves(a, b game.Move) int {
	for i := 0; i < min(a.Len(), b.Len()); i++ {
		if c := cmp.Compare(a.At(i), b.At(i)); c != 0 {
			return c
		}
	}
	return cmp.Compare(a.Len(), b.Len())
}

// PackMove is the stored form of a move, an int64: the stone count in the
// low 3 bits, then 10 bits per square (sorted). The null move is 0.
func PackMove(m game.Move) int64 {
	v := int64(m.Len())
	for i := 0; i < m.Len(); i++ {
		v |= int64(m.At(i)) << (3 + 10*uint(i))
	}
	return v
}

// UnpackMove reads a move written by PackMove.
func UnpackMove(v int64) (game.Move, error) {
	n := int(v & 7)
	if n > game.MaxPerTurn || v < 0 || v>>(3+10*uint(n)) != 0 {
		return game.Move{}, fmt.Errorf("bad stored move %#x", v)
	}
	sq := make([]game.Square, n)
	for i := range sq {
		sq[i] = game.Square(v >> (3 + 10*uint(i)) & 1023)
	}
	return game.MakeMove(sq...)
}

// MarshalJSON stores the move packed (see PackMove).
func (u Unsolved) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Move   int64                 `json:"move"`
		Reason threat.UnsolvedReason `json:"reason,omitempty"`
	}{PackMove(u.Move), u.Reason})
}

// UnmarshalJSON reads a packed move.
func (u *Unsolved) UnmarshalJSON(data []byte) error {
	var j struct {
		Move   int64                 `json:"move"`
		Reason threat.UnsolvedReason `json:"reason,omitempty"`
	}
	if err := json.Unmarshal(data, &j); err != nil {
		return err
	}
	m, err := UnpackMove(j.Move)
	if err != nil {
		return err
	}
	u.Move, u.Reason = m, j.Reason
	return nil
}
