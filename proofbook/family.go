package proofbook

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"c6book"
	"c6book/engine"
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
// it at the schedule's first budget, storing each verdict with
// StoreVerdict (re-checked by proofcheck like every verdict). What m does
// not prove is then worked on as usual (siblingMoves, the player). So the
// job changes only the order of the work: nothing counts as proved but the
// verdicts proofcheck accepted.

// seminullAnswer returns, for the position item (attacker to move)
// reached from the defender-to-move position parent by the full move mv
// (parent's canonical frame), the answer of the closed seminull item of
// parent that mv completes: the attacker move (item's canonical frame)
// that proved the seminull position D+s, s one of mv's stones, and the
// family key (the packed seminull move as parent stores it). ok is false
// when neither stone of mv is a closed seminull item of parent, or the
// answer is not legal at item.
func (bk *Book) seminullAnswer(ctx context.Context, parent PosID, pb *engine.Board, mv engine.Move, a engine.Color) (m engine.Move, key int64, ok bool, err error) {
	r := bk.rules
	if mv.Len() != 2 {
		return m, 0, false, nil
	}
	stab := pb.Stabilizer()
	for i := 0; i < 2; i++ {
		u, x := mv.At(i), mv.At(1-i)
		rep, g := c6book.RepMove(r, stab, engine.NewMove(u))
		pm := packMove(rep)
		var ds int64
		switch err := bk.r.QueryRowContext(ctx, "SELECT child FROM edge WHERE parent = ? AND move = ?", int64(parent), pm).Scan(&ds); {
		case errors.Is(err, sql.ErrNoRows):
			continue
		case err != nil:
			return m, 0, false, err
		}
		pr, _, err := readProof(ctx, bk.r, r, PosID(ds), a)
		if err != nil {
			return m, 0, false, err
		}
		if pr.Status != c6book.StatusProved {
			continue
		}
		answer, ok, err := bk.bestAnswer(ctx, PosID(ds), a)
		if err != nil || !ok {
			return m, 0, false, err
		}
		// answer is in D+rep's canonical frame; into parent's frame (the
		// one where rep is played), then into mv's (g maps mv's u onto
		// rep), then into the item's canonical frame.
		s := rep.At(0)
		pb.Place(s, a.Opp())
		_, dsym := pb.CanonicalKey()
		pb.Remove(s)
		inP := r.TransformMove(engine.InverseSymmetry(dsym), answer)
		inMv := r.TransformMove(engine.InverseSymmetry(g), inP)
		pb.Place(u, a.Opp())
		pb.Place(x, a.Opp())
		_, isym := pb.CanonicalKey()
		legal := pb.At(inMv.At(0)) == engine.Empty && pb.At(inMv.At(1)) == engine.Empty
		pb.Remove(x)
		pb.Remove(u)
		if !legal {
			continue
		}
		return r.TransformMove(isym, inMv), pm, true, nil
	}
	return m, 0, false, nil
}

// bestAnswer is the proved attacker move of the attacker-to-move position
// id the proof rules rest on: the lowest order, then the smallest zone
// (as c6book's orProof chooses).
func (bk *Book) bestAnswer(ctx context.Context, id PosID, a engine.Color) (engine.Move, bool, error) {
	kids, err := readChildren(ctx, bk.r, bk.rules, id, a)
	if err != nil {
		return engine.Move{}, false, err
	}
	var best *childRow
	for i := range kids {
		c := &kids[i]
		if c.proof.Status != c6book.StatusProved || c.proof.Zone == nil || c.move.Len() != bk.rules.P {
			continue
		}
		if best == nil || c.proof.Order < best.proof.Order || c.proof.Order == best.proof.Order && len(c.proof.Zone) < len(best.proof.Zone) {
			best = c
		}
	}
	if best == nil {
		return engine.Move{}, false, nil
	}
	return best.move, true, nil
}

// familyPending reports whether the item position id (a full defender
// move of a defender-to-move position) is waiting for its family job: it
// has no attacker move stored, and one of its parents has a closed
// seminull item the move completes whose answer is legal at id. It
// returns the parent, the move (parent's frame) and the family key.
func (t *bookTree) familyPending(ctx context.Context, id PosID) (parent PosID, mv engine.Move, key int64, ok bool, err error) {
	var one int
	switch err := t.bk.r.QueryRowContext(ctx, "SELECT 1 FROM edge WHERE parent = ? LIMIT 1", int64(id)).Scan(&one); {
	case err == nil:
		return 0, mv, 0, false, nil // expanded already
	case !errors.Is(err, sql.ErrNoRows):
		return 0, mv, 0, false, err
	}
	rows, err := t.bk.r.QueryContext(ctx, "SELECT parent, move FROM edge WHERE child = ? ORDER BY parent LIMIT 4", int64(id))
	if err != nil {
		return 0, mv, 0, false, err
	}
	type up struct {
		p  PosID
		mv engine.Move
	}
	var ups []up
	for rows.Next() {
		var p, pm int64
		if err := rows.Scan(&p, &pm); err != nil {
			rows.Close()
			return 0, mv, 0, false, err
		}
		m, err := unpackMove(pm)
		if err != nil {
			rows.Close()
			return 0, mv, 0, false, err
		}
		ups = append(ups, up{PosID(p), m})
	}
	if err := rows.Close(); err != nil {
		return 0, mv, 0, false, err
	}
	for _, u := range ups {
		if u.mv.Len() != t.bk.rules.P {
			continue
		}
		pi, err := readInfo(ctx, t.bk.r, u.p)
		if err != nil {
			return 0, mv, 0, false, err
		}
		if pi.toMove != t.a.Opp() {
			continue
		}
		pb, err := t.bk.Board(ctx, u.p)
		if err != nil {
			return 0, mv, 0, false, err
		}
		_, key, ok, err := t.bk.seminullAnswer(ctx, u.p, pb, u.mv, t.a)
		if err != nil {
			return 0, mv, 0, false, err
		}
		if ok {
			return u.p, u.mv, key, true, nil
		}
	}
	return 0, mv, 0, false, nil
}

// familyOpen filters the open items of the defender-to-move position id
// (board b) the search is shown: of the items waiting for one family job
// (familyPending, same parent and seminull item) only the first, whose
// job covers them all. At least one waiting item of each family stays,
// so the position is never proved in the search's view while one waits.
func (t *bookTree) familyOpen(ctx context.Context, id PosID, b *engine.Board, items []Item) ([]Item, error) {
	seen := map[int64]bool{}
	out := items[:0:0]
	for _, it := range items {
		if it.ID == 0 || it.Move.Len() != t.bk.rules.P {
			out = append(out, it)
			continue
		}
		pending, err := t.pendingIn(ctx, id, b, it)
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
// id (board b) when the item waits for its family job, else 0.
func (t *bookTree) pendingIn(ctx context.Context, id PosID, b *engine.Board, it Item) (int64, error) {
	var one int
	switch err := t.bk.r.QueryRowContext(ctx, "SELECT 1 FROM edge WHERE parent = ? LIMIT 1", int64(it.ID)).Scan(&one); {
	case err == nil:
		return 0, nil
	case !errors.Is(err, sql.ErrNoRows):
		return 0, err
	}
	_, key, ok, err := t.bk.seminullAnswer(ctx, id, b, it.Move, t.a)
	if err != nil || !ok {
		return 0, err
	}
	return key + 1, nil // never 0
}

// runFamily is the family job of the item position id (familyPending):
// for id and every other item of the same closed seminull item of the same
// parent still waiting, the answer that proved the seminull position is
// stored as the auto-pilot's move (vouched for) and its position verified
// at the schedule's first budget, each verdict stored by Book.Verify
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
	members := []Item{{Move: mv, ID: id}}
	vd, _, err := loadVerdictData(ctx, t.bk.r, parent)
	if err != nil {
		return nil, err
	}
	if vd != nil && vd.Attacker == t.a {
		items, err := t.bk.openItems(ctx, parent, t.a, pb, vd)
		if err != nil {
			return nil, err
		}
		for _, it := range items {
			if it.ID == 0 || it.ID == id || it.Move.Len() != t.bk.rules.P {
				continue
			}
			k, err := t.pendingIn(ctx, parent, pb, it)
			if err != nil {
				return nil, err
			}
			if k == key+1 {
				members = append(members, it)
			}
		}
	}
	step := t.first
	vo := t.opts.Verify
	vo.Limits.MaxNodes = t.schedule[step]
	var verified []PosID
	calls, proved := 0, 0
	for _, it := range members {
		if ctx.Err() != nil {
			break
		}
		m, _, ok, err := t.bk.seminullAnswer(ctx, parent, pb, it.Move, t.a)
		if err != nil {
			return nil, err
		}
		if !ok {
			continue
		}
		_, positions, kids, err := t.bk.addAutoMoves(ctx, it.ID, []engine.Move{m}, []float64{vouched})
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
		res, err := t.bk.Verify(ctx, k, t.v, vo, nil)
		if err != nil {
			if ctx.Err() != nil {
				break
			}
			var se *StoreError
			if errors.As(err, &se) && !IsBusy(err) && !errors.Is(err, ErrReadOnly) {
				// Refused: nothing stored; this run leaves the position alone.
				t.mu.Lock()
				t.refused[k] = se.Err.Error()
				t.mu.Unlock()
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
