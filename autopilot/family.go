package autopilot

import (
	"context"
	"fmt"

	"c6book"
	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/proofbook"
)

// The seminull family job (issue 33, item 2: λ3 that closes).
//
// A closed seminull item s of a defender-to-move position P (its position
// D+s proved at tolerance 1 by an attacker move m, with zone Z(s)) leaves
// the full moves (s, x), x in Z(s), each a position of its own: on the
// openings measured there are 70 to 100 of them per item, and on
// j10 a1s19 l8k9 (item i11, m = j8l10) m itself wins 79 of the 87. Worked
// on one by one, each such position cost an expansion (the player, about
// two thirds of the run's CPU), four new positions and a verifier call,
// and the proof number of P counted every one of them, so that the search
// left P as soon as an item closed and no order-3 proof ever came out of
// a run.
//
// The family job does what the work on them one by one would do first,
// for all of them at once: the search sees one position of the family
// (the first whose answer m has not been tried, familyOpen), and its job
// (runFamily) adds m to every such position of the family and verifies
// it at the schedule's first budget, storing each verdict through
// Store.Verify (re-checked by proofcheck like every verdict). What m does
// not prove is then worked on as usual (siblingMoves, the player). So the
// job changes only the order of the work: nothing counts as proved but the
// verdicts proofcheck accepted.

// seminulls is what the family logic reads of one defender-to-move
// position parent (board pb, canonical): its stored moves, and the answers
// of its closed seminull items as they are asked for.
type seminulls struct {
	bk      Store
	a       game.Color
	parent  PosID
	pb      *board.Board
	kids    []proofbook.AutoEdge
	answers map[game.Move]seminullAns
}

type seminullAns struct {
	m  game.Move // in D+s's canonical frame
	ok bool
}

func newSeminulls(ctx context.Context, bk Store, parent PosID, pb *board.Board, a game.Color) (*seminulls, error) {
	kids, err := bk.AutoMoves(ctx, parent, a)
	if err != nil {
		return nil, err
	}
	return &seminulls{bk: bk, a: a, parent: parent, pb: pb, kids: kids, answers: map[game.Move]seminullAns{}}, nil
}

// answer returns, for the position reached from the parent by the full
// defender move mv (parent's frame), the answer of the closed seminull
// item of parent that mv completes: the attacker move, in the canonical
// frame of the position mv reaches, that proved the seminull position
// D+s, s one of mv's stones; key names the family (the packed seminull
// move as parent stores it). ok is false when neither stone of mv is a
// closed seminull item of parent, or the answer is not legal after mv.
func (sn *seminulls) answer(ctx context.Context, mv game.Move) (m game.Move, key int64, ok bool, err error) {
	pb, a := sn.pb, sn.a
	r := pb.Rules()
	if mv.Len() != 2 {
		return m, 0, false, nil
	}
	stab := pb.Stabilizer()
	for i := 0; i < 2; i++ {
		u, x := mv.At(i), mv.At(1-i)
		rep, g := c6book.RepMove(r, stab, game.NewMove(u))
		ans, seen := sn.answers[rep]
		if !seen {
			for j := range sn.kids {
				ds := &sn.kids[j]
				if ds.Move != rep || ds.Proof.Status != c6book.StatusProved {
					continue
				}
				if ans.m, ans.ok, err = bestAnswer(ctx, sn.bk, ds.Child, a); err != nil {
					return m, 0, false, err
				}
				break
			}
			sn.answers[rep] = ans
		}
		if !ans.ok {
			continue
		}
		// ans.m is in D+rep's canonical frame; into parent's frame (the
		// one where rep is played), then into mv's (g maps mv's u onto
		// rep), then into the canonical frame of the position mv reaches.
		s := rep.At(0)
		pb.Place(s, a.Opp())
		_, dsym := pb.CanonicalKey()
		pb.Remove(s)
		inP := r.TransformMove(game.InverseSymmetry(dsym), ans.m)
		inMv := r.TransformMove(game.InverseSymmetry(g), inP)
		pb.Place(u, a.Opp())
		pb.Place(x, a.Opp())
		_, isym := pb.CanonicalKey()
		legal := pb.At(inMv.At(0)) == game.Empty && pb.At(inMv.At(1)) == game.Empty
		pb.Remove(x)
		pb.Remove(u)
		if !legal {
			continue
		}
		return r.TransformMove(isym, inMv), c6book.PackMove(rep), true, nil
	}
	return m, 0, false, nil
}

// bestAnswer is the proved attacker move of the attacker-to-move position
// id the proof rules rest on: the lowest order, then the smallest zone
// (as c6book's orProof chooses).
func bestAnswer(ctx context.Context, bk Store, id PosID, a game.Color) (game.Move, bool, error) {
	kids, err := bk.AutoMoves(ctx, id, a)
	if err != nil {
		return game.Move{}, false, err
	}
	var best game.Move
	bestOrd, bestZone, found := 0, 0, false
	for _, c := range kids {
		if c.Proof.Status != c6book.StatusProved || c.Move.Len() < 2 {
			continue
		}
		n, err := bk.AutoNode(ctx, c.Child, a) // the zone
		if err != nil {
			return game.Move{}, false, err
		}
		if n.Proof.Status != c6book.StatusProved || n.Proof.Zone == nil {
			continue
		}
		if !found || n.Proof.Order < bestOrd || n.Proof.Order == bestOrd && len(n.Proof.Zone) < bestZone {
			best, bestOrd, bestZone, found = c.Move, n.Proof.Order, len(n.Proof.Zone), true
		}
	}
	return best, found, nil
}

// familyPending reports whether the item position id (a full defender
// move of a defender-to-move position) is waiting for its family job: it
// has no attacker move stored, and one of its parents has a closed
// seminull item the move completes whose answer is legal at id. It
// returns the parent, the move (parent's frame) and the family key.
func (t *bookTree) familyPending(ctx context.Context, id PosID) (parent PosID, mv game.Move, key int64, ok bool, err error) {
	kids, err := t.bk.AutoMoves(ctx, id, t.a)
	if err != nil || len(kids) > 0 {
		return 0, mv, 0, false, err // expanded already
	}
	ups, err := t.bk.AutoParents(ctx, id)
	if err != nil {
		return 0, mv, 0, false, err
	}
	for _, u := range ups[:min(len(ups), maxSiblingParents)] {
		if u.ParentToMove != t.a.Opp() || u.Move.Len() != 2 {
			continue
		}
		pb, err := t.bk.Board(ctx, u.Parent)
		if err != nil {
			return 0, mv, 0, false, err
		}
		sn, err := newSeminulls(ctx, t.bk, u.Parent, pb, t.a)
		if err != nil {
			return 0, mv, 0, false, err
		}
		_, key, ok, err := sn.answer(ctx, u.Move)
		if err != nil {
			return 0, mv, 0, false, err
		}
		if ok {
			return u.Parent, u.Move, key, true, nil
		}
	}
	return 0, mv, 0, false, nil
}

// familyOpen filters the open items of the defender-to-move position id
// (board b) the search is shown: of the items waiting for one family job
// (familyPending, same parent and seminull item) only the first, whose
// job covers them all. At least one waiting item of each family stays,
// so the position is never proved in the search's view while one waits.
func (t *bookTree) familyOpen(ctx context.Context, id PosID, b *board.Board, items []proofbook.Item) ([]proofbook.Item, error) {
	sn, err := newSeminulls(ctx, t.bk, id, b, t.a)
	if err != nil {
		return nil, err
	}
	seen := map[int64]bool{}
	out := items[:0:0]
	for _, it := range items {
		if it.ID == 0 || it.Move.Len() != 2 {
			out = append(out, it)
			continue
		}
		pending, err := t.pendingIn(ctx, sn, it)
		if err != nil {
			return nil, err
		}
		if pending == 0 {
			out = append(out, it)
			continue
		}
		if !seen[pending] {
			seen[pending] = true
			out = append(out, it)
		}
	}
	return out, nil
}

// pendingIn is the family key of item it of the defender-to-move position
// sn.parent plus one when the item waits for its family job, else 0.
func (t *bookTree) pendingIn(ctx context.Context, sn *seminulls, it proofbook.Item) (int64, error) {
	kids, err := t.bk.AutoMoves(ctx, it.ID, t.a)
	if err != nil || len(kids) > 0 {
		return 0, err
	}
	_, key, ok, err := sn.answer(ctx, it.Move)
	if err != nil || !ok {
		return 0, err
	}
	return key + 1, nil // never 0
}

// runFamily is the family job of the item position id (familyPending):
// for id and every other item of the same closed seminull item of the same
// parent still waiting, the answer that proved the seminull position is
// stored as the auto-pilot's move (vouched for) and its position verified
// at the schedule's first budget, each verdict stored by Store.Verify
// (re-checked by proofcheck). It stops at ctx's end; what is stored stays.
func (t *bookTree) runFamily(ctx context.Context, id PosID) (func(), error) {
	parent, mv, key, ok, err := t.familyPending(ctx, id)
	if err != nil || !ok {
		return nil, err
	}
	pb, err := t.bk.Board(ctx, parent)
	if err != nil {
		return nil, err
	}
	sn, err := newSeminulls(ctx, t.bk, parent, pb, t.a)
	if err != nil {
		return nil, err
	}
	members := []proofbook.Item{{Move: mv, ID: id}}
	pn, err := t.bk.AutoNode(ctx, parent, t.a)
	if err != nil {
		return nil, err
	}
	// The parent's verdict counts (as Look reads it: its certificate was
	// checked when stored).
	tol, tolOK := pb.DefenderDeficit(t.a)
	if vd := pn.Verdict; vd != nil && vd.Attacker == t.a && pn.HasCert && tolOK && vd.Tolerance == tol && !vd.AllUnsolved {
		items, err := t.bk.OpenItems(ctx, parent, t.a, pb, vd)
		if err != nil {
			return nil, err
		}
		for _, it := range items {
			if it.ID == 0 || it.ID == id || it.Move.Len() != 2 {
				continue
			}
			k, err := t.pendingIn(ctx, sn, it)
			if err != nil {
				return nil, err
			}
			if k == key+1 {
				members = append(members, it)
			}
		}
	}
	step := t.first
	vo := t.verifyOptions(ctx, t.schedule[step], 0)
	t.work.start(id, len(members))
	defer t.work.done(id)
	var verified []PosID
	calls, proved := 0, 0
	for i, it := range members {
		if ctx.Err() != nil {
			break
		}
		t.work.at(id, i)
		m, _, ok, err := sn.answer(ctx, it.Move)
		if err != nil {
			return nil, err
		}
		if !ok {
			continue
		}
		_, positions, kids, err := t.bk.AddAutoMoves(ctx, it.ID, []game.Move{m}, []float64{vouched})
		if err != nil {
			return nil, fmt.Errorf("family of position %d: %w", it.ID, err)
		}
		t.added.Add(int64(positions))
		if len(kids) == 0 || kids[0] == 0 {
			continue
		}
		k := kids[0]
		need, err := t.needsVerdict(ctx, k)
		if err != nil {
			return nil, err
		}
		if !need {
			continue
		}
		res, err := t.bk.Verify(ctx, k, t.v, vo, t.work.report(id))
		if err != nil {
			if ctx.Err() != nil {
				break
			}
			if why, ok := refusal(ctx, err); ok {
				t.refuse(k, why)
				continue
			}
			return nil, fmt.Errorf("position %d: %w", k, err)
		}
		t.added.Add(int64(res.Positions))
		verified = append(verified, k)
		calls++
		if res.Verdict.Status == c6book.StatusProved {
			proved++
		}
	}
	if len(verified) == 0 && ctx.Err() != nil {
		return nil, ctx.Err()
	}
	return func() {
		t.mu.Lock()
		defer t.mu.Unlock()
		for _, k := range verified {
			t.step[k] = step
		}
		t.callsAt[step] += calls
		t.familyJobs++
		t.familyCalls += calls
		t.familyProved += proved
	}, nil
}

// seminullAfter is what the seminull position id (one defender stone of
// two: the position of an open seminull item) counts in the search beyond
// its own numbers (jobsearch.JobNode.After, ProveOptions.SeminullWeight):
// the full moves of its family its answer will leave open, the mean over
// the run's family jobs with SeminullWeight counting as one job before
// them. 0 for any other position.
func (t *bookTree) seminullAfter(ctx context.Context, id PosID) (int64, error) {
	w := int64(t.opts.SeminullWeight)
	if w < 0 {
		return 0, nil
	}
	if w == 0 {
		w = DefaultSeminullWeight
	}
	ups, err := t.bk.AutoParents(ctx, id)
	if err != nil {
		return 0, err
	}
	for _, u := range ups {
		if u.ParentToMove != t.a.Opp() || u.Move.Len() != 1 {
			continue
		}
		// One stone is a full turn on the first (White attacking after
		// Black's first stone): the stones say which.
		b, err := t.bk.Board(ctx, id)
		if err != nil {
			return 0, err
		}
		if d, ok := b.DefenderDeficit(t.a); !ok || d == 0 {
			return 0, nil
		}
		t.mu.Lock()
		jobs, open := int64(t.familyJobs), int64(t.familyCalls-t.familyProved)
		t.mu.Unlock()
		return max((w+open+(1+jobs)/2)/(1+jobs), 1), nil
	}
	return 0, nil
}
