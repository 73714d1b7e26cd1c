package proofbook

import (
	"container/heap"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"c6book"
	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/engine/threat"
	"c6book/proofcheck"
)

// Status propagation: the proof rules are the root package's (c6book's
// ProofOf, a pure function of the facts recompute loads); a book is
// consistent when every status row equals its recomputation, and a change
// is propagated by recomputing the changed position and, while values
// change, its ancestors (deepest first).

type posInfo struct {
	toMove  game.Color
	winner  game.Color
	nstones int
}

type childRow struct {
	move  game.Move
	id    PosID
	proof c6book.Proof
}

func readInfo(ctx context.Context, q queryer, id PosID) (posInfo, error) {
	var pi posInfo
	var tm, w int
	err := q.QueryRowContext(ctx, "SELECT to_move, winner, nstones FROM position WHERE id = ?", int64(id)).Scan(&tm, &w, &pi.nstones)
	if errors.Is(err, sql.ErrNoRows) {
		return pi, fmt.Errorf("position %d: %w", id, ErrNotFound)
	}
	pi.toMove, pi.winner = game.Color(tm), game.Color(w)
	return pi, err
}

func readProof(ctx context.Context, q queryer, r game.Rules, id PosID, a game.Color) (c6book.Proof, bool, error) {
	var np nullProof
	err := q.QueryRowContext(ctx, "SELECT s.status, s.ord, s.how, s.expert, s.pn, s.dn, s.updated_at, "+zoneCols+" FROM status s WHERE s.pos = ? AND s.attacker = ?", int64(id), int(a)).
		Scan(&np.status, &np.ord, &np.how, &np.expert, &np.pn, &np.dn, &np.updated, &np.zone, &np.hasZone)
	if errors.Is(err, sql.ErrNoRows) {
		return defaultProof(a), false, nil
	}
	if err != nil {
		return c6book.Proof{}, false, err
	}
	p := np.proof(a)
	if p.Zone, err = np.zoneOf(r); err != nil {
		return c6book.Proof{}, false, fmt.Errorf("position %d: %w", id, err)
	}
	return p, true, nil
}

func readChildren(ctx context.Context, q queryer, r game.Rules, id PosID, a game.Color) ([]childRow, error) {
	rows, err := q.QueryContext(ctx, `
SELECT e.move, e.child, s.status, s.ord, s.how, s.expert, s.pn, s.dn, s.updated_at, `+zoneCols+`
FROM edge e LEFT JOIN status s ON s.pos = e.child AND s.attacker = ?
WHERE e.parent = ? ORDER BY e.move`, int(a), int64(id))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []childRow
	for rows.Next() {
		var mv, child int64
		var np nullProof
		if err := rows.Scan(&mv, &child, &np.status, &np.ord, &np.how, &np.expert, &np.pn, &np.dn, &np.updated, &np.zone, &np.hasZone); err != nil {
			return nil, err
		}
		m, err := unpackMove(mv)
		if err != nil {
			return nil, err
		}
		pr := np.proof(a)
		if pr.Zone, err = np.zoneOf(r); err != nil {
			return nil, fmt.Errorf("position %d: %w", child, err)
		}
		out = append(out, childRow{m, PosID(child), pr})
	}
	return out, rows.Err()
}

// recompute derives the proof of position id for attacker a from its
// stored children and verdict with the proof rules (c6book.ProofOf),
// loading only what the position's case needs. expert is the position's
// sticky flag. missing lists the moves (id's canonical frame) the proof
// needs as children that are not stored yet.
func recompute(ctx context.Context, bk *Book, q queryer, id PosID, a game.Color, expert bool) (p c6book.Proof, missing []game.Move, err error) {
	pi, err := readInfo(ctx, q, id)
	if err != nil {
		return c6book.Proof{}, nil, err
	}
	return c6book.ProofOf(c6book.ProofFacts{
		Attacker: a, ToMove: pi.toMove, Winner: pi.winner, Stones: pi.nstones, Expert: expert,
		Children: func() ([]c6book.ProofChild, error) {
			kids, err := readChildren(ctx, q, bk.rules, id, a)
			return proofChildren(kids), err
		},
		Board: func() (*board.Board, error) {
			list, _, err := loadPos(ctx, q, bk.rules, id)
			if err != nil {
				return nil, err
			}
			return bk.board(list, pi.toMove), nil
		},
		Verdict: func() (*c6book.Verdict, error) { return loadVerdict(ctx, q, id) },
		Twins:   func() ([]c6book.ProofTwin, error) { return readTwins(ctx, q, bk.rules, id, a) },
	})
}

// proofChildren are the stored children as the proof rules take them (in
// the same order: an item's Child indexes rows).
func proofChildren(rows []childRow) []c6book.ProofChild {
	out := make([]c6book.ProofChild, len(rows))
	for i, c := range rows {
		out[i] = c6book.ProofChild{Move: c.move, Proof: c.proof}
	}
	return out
}

// board builds a stored position's canonical board.
func (bk *Book) board(list []stone, toMove game.Color) *board.Board {
	b := bk.tmpl.Clone()
	for _, st := range list {
		b.Place(st.sq, st.c)
	}
	b.SetToMove(toMove)
	return b
}

// pqItem orders positions deepest first.
type pqItem struct {
	id      PosID
	nstones int
	toMove  game.Color
}
type posHeap []pqItem

func (h posHeap) Len() int { return len(h) }
func (h posHeap) Less(i, j int) bool {
	if h[i].nstones != h[j].nstones {
		return h[i].nstones > h[j].nstones
	}
	return h[i].id > h[j].id
}
func (h posHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *posHeap) Push(x any)   { *h = append(*h, x.(pqItem)) }
func (h *posHeap) Pop() any {
	old := *h
	it := old[len(old)-1]
	*h = old[:len(old)-1]
	return it
}

// propagate recomputes the given positions for both attackers and, while
// their values change, their ancestors, inside transaction tx.
func propagate(ctx context.Context, bk *Book, tx *sql.Tx, start []PosID) error {
	now := time.Now().Unix()
	// Positions that got new children (the items of a closed seminull):
	// propagated again for both attackers once this pass is done.
	var grown []PosID
	for a := game.Black; a <= game.White; a++ {
		h := &posHeap{}
		queued := map[PosID]bool{}
		push := func(id PosID) error {
			if queued[id] {
				return nil
			}
			pi, err := readInfo(ctx, tx, id)
			if err != nil {
				return err
			}
			queued[id] = true
			heap.Push(h, pqItem{id, pi.nstones, pi.toMove})
			return nil
		}
		for _, id := range start {
			if err := push(id); err != nil {
				return err
			}
		}
		for steps := 0; h.Len() > 0; steps++ {
			if steps%256 == 0 && ctx.Err() != nil {
				return ctx.Err()
			}
			it := heap.Pop(h).(pqItem)
			delete(queued, it.id)
			old, _, err := readProof(ctx, tx, bk.rules, it.id, a)
			if err != nil {
				return err
			}
			np, missing, err := recompute(ctx, bk, tx, it.id, a, old.Expert)
			if err != nil {
				return err
			}
			if len(missing) > 0 {
				// The items of a closed seminull (the moves (s, x) inside
				// its zone) become children, then the position is
				// recomputed with them.
				dirty, err := bk.addItems(ctx, tx, it.id, missing)
				if err != nil {
					return err
				}
				grown = append(append(grown, it.id), dirty...)
				queued[it.id] = true
				heap.Push(h, it)
				continue
			}
			if c6book.SameProof(old, np) {
				continue
			}
			if err := writeProof(ctx, bk, tx, it.id, old, np, now); err != nil {
				return err
			}
			rows, err := tx.QueryContext(ctx, "SELECT parent FROM edge WHERE child = ?", int64(it.id))
			if err != nil {
				return err
			}
			var parents []PosID
			for rows.Next() {
				var p int64
				if err := rows.Scan(&p); err != nil {
					rows.Close()
					return err
				}
				parents = append(parents, PosID(p))
			}
			if err := rows.Close(); err != nil {
				return err
			}
			// Positions this one is the twin of follow its status too.
			twins, err := twinsOf(ctx, tx, it.id)
			if err != nil {
				return err
			}
			parents = append(parents, twins...)
			for _, p := range parents {
				if err := push(p); err != nil {
					return err
				}
			}
		}
	}
	if len(grown) > 0 {
		return propagate(ctx, bk, tx, grown)
	}
	return nil
}

// writeProof stores a position's status row (old is the row read in tx
// before), keeping the proof digest.
func writeProof(ctx context.Context, bk *Book, tx *sql.Tx, id PosID, old, np c6book.Proof, now int64) error {
	var removed, added []uint64
	var err error
	if old.Status == c6book.StatusProved && !bk.noDigest {
		if removed, err = oldStatusHash(ctx, tx, int64(id), int(np.Attacker)); err != nil {
			return err
		}
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO status(pos, attacker, status, ord, how, expert, pn, dn, updated_at, zone)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT(pos, attacker) DO UPDATE SET status = excluded.status, ord = excluded.ord, how = excluded.how,
  expert = excluded.expert, pn = excluded.pn, dn = excluded.dn, updated_at = excluded.updated_at, zone = excluded.zone`,
		int64(id), int(np.Attacker), int(np.Status), np.Order, np.How, boolInt(np.Expert), np.PN, np.DN, now, packSquares(np.Zone))
	if err != nil {
		return err
	}
	if np.Status == c6book.StatusProved && !bk.noDigest {
		if added, err = oldStatusHash(ctx, tx, int64(id), int(np.Attacker)); err != nil {
			return err
		}
	}
	return bumpDigest(ctx, tx, removed, added)
}

// addItems stores the moves (canonical frame of position id, defender to
// move) as children of id; it returns the positions whose status the new
// edges change.
func (bk *Book) addItems(ctx context.Context, tx *sql.Tx, id PosID, moves []game.Move) ([]PosID, error) {
	w, list, b, err := bk.walkFrom(ctx, tx, id)
	if err != nil {
		return nil, err
	}
	for _, m := range moves {
		if _, err := w.step(ctx, b, node{id: id, list: list}, m, true); err != nil {
			return nil, fmt.Errorf("item %s: %w", game.MoveName(bk.rules, m), err)
		}
		if err := b.Undo(); err != nil {
			return nil, err
		}
	}
	return w.dirty, nil
}

// edgeMoves lists the stored moves out of position id (packed).
func edgeMoves(ctx context.Context, tx *sql.Tx, id PosID) (map[int64]bool, error) {
	rows, err := tx.QueryContext(ctx, "SELECT move FROM edge WHERE parent = ?", int64(id))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[int64]bool{}
	for rows.Next() {
		var m int64
		if err := rows.Scan(&m); err != nil {
			return nil, err
		}
		out[m] = true
	}
	return out, rows.Err()
}

// newEdges lists the moves out of position id (unpacked, in the order of
// their packed values) that are not in had.
func newEdges(ctx context.Context, tx *sql.Tx, id PosID, had map[int64]bool) ([]game.Move, error) {
	moves, _, err := newChildren(ctx, tx, id, had)
	return moves, err
}

// newChildren is newEdges with the children the moves lead to.
func newChildren(ctx context.Context, tx *sql.Tx, id PosID, had map[int64]bool) ([]game.Move, []PosID, error) {
	rows, err := tx.QueryContext(ctx, "SELECT move, child FROM edge WHERE parent = ? ORDER BY move", int64(id))
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	var moves []game.Move
	var kids []PosID
	for rows.Next() {
		var pm, child int64
		if err := rows.Scan(&pm, &child); err != nil {
			return nil, nil, err
		}
		if had[pm] {
			continue
		}
		m, err := unpackMove(pm)
		if err != nil {
			return nil, nil, err
		}
		moves, kids = append(moves, m), append(kids, PosID(child))
	}
	return moves, kids, rows.Err()
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// SetDisproved marks (or, with on=false, unmarks) position id as disproved
// by an expert for attacker, and propagates.
func (bk *Book) SetDisproved(ctx context.Context, id PosID, attacker game.Color, on bool) error {
	if attacker != game.Black && attacker != game.White {
		return errors.New("attacker must be Black or White")
	}
	return bk.write(ctx, func(tx *sql.Tx) error {
		if _, err := readInfo(ctx, tx, id); err != nil {
			return err
		}
		old, _, err := readProof(ctx, tx, bk.rules, id, attacker)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO status(pos, attacker, status, ord, how, expert, pn, dn, updated_at)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT(pos, attacker) DO UPDATE SET expert = excluded.expert`,
			int64(id), int(attacker), int(old.Status), old.Order, old.How, boolInt(on), old.PN, old.DN, time.Now().Unix()); err != nil {
			return err
		}
		return propagate(ctx, bk, tx, []PosID{id})
	})
}

// StoreVerdict stores v as the latest verdict of position id (a position
// with the defender, v.Attacker's opponent, to move; moves in its canonical
// frame), adds every item it leaves (unsolved and open seminull moves) as
// children, and propagates the statuses. It returns what it added.
//
// A verdict with a certificate is re-checked first by proofcheck, which
// shares no code with the prover (c6book's Verdict.Check: the book is the
// trust boundary, whatever verifier made the verdict); one that does not
// check is refused. The verdict's tolerance must be the position's
// defender stone deficit. A verdict without a certificate is stored but
// proves nothing.
func (bk *Book) StoreVerdict(ctx context.Context, id PosID, v c6book.Verdict) (Stored, error) {
	var st Stored
	if v.Attacker != game.Black && v.Attacker != game.White {
		return st, errors.New("verdict: attacker must be Black or White")
	}
	if v.Status != c6book.StatusProved && v.Status != c6book.StatusOpen {
		return st, fmt.Errorf("verdict: status %q", v.Status)
	}
	list, tm, err := loadPos(ctx, bk.r, bk.rules, id)
	if err != nil {
		return st, err
	}
	if tm != v.Attacker.Opp() {
		return st, fmt.Errorf("verdict for attacker %s on a position with %s to move", v.Attacker, tm)
	}
	var cert []byte
	var checked *proofcheck.VerdictResult
	if v.Cert != nil {
		if checked, err = bk.checkCert(ctx, list, tm, &v); err != nil {
			return st, err
		}
		if cert, err = v.Cert.MarshalBinary(); err != nil {
			return st, err
		}
	}
	data, err := marshalVerdict(v)
	if err != nil {
		return st, err
	}
	err = bk.writeRetry(ctx, func(tx *sql.Tx) error {
		st = Stored{}
		before, _, err := readProof(ctx, tx, bk.rules, id, v.Attacker)
		if err != nil {
			return err
		}
		st.Before = before.Status
		last, err := lastPosition(ctx, tx)
		if err != nil {
			return err
		}
		removed, err := oldVerdictHash(ctx, tx, int64(id))
		if err != nil {
			return err
		}
		if st.prev, err = readVerdictRow(ctx, tx, id); err != nil {
			return err
		}
		if err := writeVerdictRow(ctx, tx, id, verdictRow{attacker: int(v.Attacker), status: v.Status, ord: v.Order,
			engine: v.Engine, data: data, created: time.Now().Unix(), cert: cert}); err != nil {
			return err
		}
		stored, err := oldVerdictHash(ctx, tx, int64(id))
		if err != nil {
			return err
		}
		st.row = stored[0]
		if err := bumpDigest(ctx, tx, removed, stored); err != nil {
			return err
		}
		had, err := edgeMoves(ctx, tx, id)
		if err != nil {
			return err
		}
		dirty, err := bk.addItems(ctx, tx, id, v.Items())
		if err != nil {
			return fmt.Errorf("verdict: %w", err)
		}
		// The positions the verdict's items reach may have proved twins.
		moves, reached, err := newChildren(ctx, tx, id, had)
		if err != nil {
			return err
		}
		linked, err := bk.linkReplyTwins(ctx, tx, id, moves, reached)
		if err != nil {
			return err
		}
		dirty = append(dirty, linked...)
		if err := propagate(ctx, bk, tx, append(dirty, id)); err != nil {
			return err
		}
		if st.Replies, err = newEdges(ctx, tx, id, had); err != nil {
			return err
		}
		after, _, err := readProof(ctx, tx, bk.rules, id, v.Attacker)
		if err != nil {
			return err
		}
		st.After = after.Status
		st.Positions, err = positionsAfter(ctx, tx, last)
		return err
	})
	if err != nil {
		bk.checked.drop(id) // the row may or may not hold the new verdict
		return Stored{}, err
	}
	if checked != nil {
		bk.checked.add(id, cert, checked)
	} else {
		bk.checked.drop(id)
	}
	return st, nil
}

// lastPosition is the largest position id, read in a write transaction
// before it adds positions; positionsAfter then counts the positions the
// transaction added (ids are allocated above the largest; no other writer
// runs meanwhile).
func lastPosition(ctx context.Context, tx *sql.Tx) (int64, error) {
	var n int64
	err := tx.QueryRowContext(ctx, "SELECT COALESCE(MAX(id), 0) FROM position").Scan(&n)
	return n, err
}

func positionsAfter(ctx context.Context, tx *sql.Tx, last int64) (int, error) {
	var n int
	err := tx.QueryRowContext(ctx, "SELECT count(*) FROM position WHERE id > ?", last).Scan(&n)
	return n, err
}

// checkCert checks verdict v (with a certificate) of the stored position
// (canonical stones list, tm to move) as StoreVerdict does before storing
// it (c6book's Verdict.Check: tolerance, certificate, coverage, order). It
// adds the certificate's zone to v.Zone.
func (bk *Book) checkCert(ctx context.Context, list []stone, tm game.Color, v *c6book.Verdict) (*proofcheck.VerdictResult, error) {
	res, err := v.Check(ctx, bk.board(list, tm))
	if err != nil {
		return nil, err
	}
	z := new(game.SqSet)
	z.AddAll(v.Zone...)
	z.AddAll(res.Zone...)
	v.Zone = z.Squares()
	return res, nil
}

// Next returns the most-proving position below from for attacker: at the
// attacker's turns the move with the smallest proof number, at the
// defender's turns (with a verdict) the item with the smallest disproof
// number, down to a position that needs work (a verifier run, or an
// attacker move). The line starts at from, in from's canonical frame.
func (bk *Book) Next(ctx context.Context, from PosID, attacker game.Color) (Line, error) {
	line := Line{IDs: []PosID{from}}
	cur := from
	for steps := 0; steps < 10000; steps++ {
		pr, _, err := readProof(ctx, bk.r, bk.rules, cur, attacker)
		if err != nil {
			return Line{}, err
		}
		pi, err := readInfo(ctx, bk.r, cur)
		if err != nil {
			return Line{}, err
		}
		if pr.Status == c6book.StatusProved || pr.Status == c6book.StatusDisproved || pi.winner != game.Empty {
			if steps == 0 {
				mask, err := bk.proofMask(ctx)
				if err != nil {
					return line, err
				}
				mask(&pr) // an unchecked proof is not called proved
				return line, fmt.Errorf("position %d is already %s for %s", cur, pr.Status, attacker)
			}
			return line, nil
		}
		kids, err := readChildren(ctx, bk.r, bk.rules, cur, attacker)
		if err != nil {
			return Line{}, err
		}
		var pick *childRow
		if pi.toMove == attacker {
			for i := range kids {
				c := &kids[i]
				if c.proof.Status == c6book.StatusDisproved || c.proof.Status == c6book.StatusProved {
					continue
				}
				if pick == nil || c.proof.PN < pick.proof.PN {
					pick = c
				}
			}
		} else {
			v, err := loadVerdict(ctx, bk.r, cur)
			if err != nil {
				return Line{}, err
			}
			list, _, err := loadPos(ctx, bk.r, bk.rules, cur)
			if err != nil {
				return Line{}, err
			}
			b := bk.board(list, pi.toMove)
			if !c6book.VerdictCounts(b, attacker, v) {
				break // needs the verifier
			}
			it, err := c6book.ProofItems(b, attacker, v, proofChildren(kids))
			if err != nil {
				return Line{}, err
			}
			for _, m := range it.Items {
				if m.Child < 0 {
					pick = nil
					break
				}
				c := &kids[m.Child]
				if c.proof.Status == c6book.StatusProved {
					continue
				}
				if pick == nil || c.proof.DN < pick.proof.DN {
					pick = c
				}
			}
		}
		if pick == nil {
			break
		}
		line.Turns = append(line.Turns, pick.move)
		line.IDs = append(line.IDs, pick.id)
		cur = pick.id
	}
	return bk.reframe(ctx, line)
}

// OpenByPN lists open positions for attacker, smallest proof number first.
func (bk *Book) OpenByPN(ctx context.Context, attacker game.Color, limit int) ([]Ranked, error) {
	return bk.ranked(ctx, attacker, c6book.StatusOpen, limit, "ORDER BY s.pn, s.pos")
}

// Proved lists positions proved for attacker with λ order minOrder or more
// (the browsable josekis), ordered by position id. Order 0 proofs are game
// ends: the attacker has six, or makes six at once; minOrder 1 leaves them
// out.
func (bk *Book) Proved(ctx context.Context, attacker game.Color, minOrder, limit int) ([]Ranked, error) {
	return bk.ranked(ctx, attacker, c6book.StatusProved, limit, "AND s.ord >= ? ORDER BY s.pos", max(minOrder, 0))
}

// CountStatus counts the positions with status st (as stored: proved
// includes the proofs ProofsChecked would show as unchecked) for attacker,
// of λ order minOrder or more when st is StatusProved.
func (bk *Book) CountStatus(ctx context.Context, attacker game.Color, st c6book.Status, minOrder int) (int64, error) {
	var n int64
	q, args := "SELECT count(*) FROM status WHERE attacker = ? AND status = ?", []any{int(attacker), int(st)}
	if st == c6book.StatusProved {
		q, args = q+" AND ord >= ?", append(args, max(minOrder, 0))
	}
	err := bk.r.QueryRowContext(ctx, q, args...).Scan(&n)
	return n, err
}

// ranked lists at most limit (default 100) positions with status st for
// attacker a, each with its stable line from the root (StableTurns); tail (with its arguments) ends the query's WHERE clause and
// orders the rows.
func (bk *Book) ranked(ctx context.Context, a game.Color, st c6book.Status, limit int, tail string, tailArgs ...any) ([]Ranked, error) {
	if limit <= 0 {
		limit = 100
	}
	args := append(append([]any{int(a), int(st)}, tailArgs...), limit)
	rows, err := bk.r.QueryContext(ctx, `
SELECT s.pos, s.status, s.ord, s.how, s.expert, s.pn, s.dn, s.updated_at, p.nstones, p.to_move, COALESCE(n.label, '')
FROM status s JOIN position p ON p.id = s.pos LEFT JOIN note n ON n.pos = s.pos
WHERE s.attacker = ? AND s.status = ? `+tail+" LIMIT ?", args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Ranked
	for rows.Next() {
		var id int64
		var np nullProof
		var r Ranked
		var tm int
		if err := rows.Scan(&id, &np.status, &np.ord, &np.how, &np.expert, &np.pn, &np.dn, &np.updated, &r.Stones, &tm, &r.Label); err != nil {
			return nil, err
		}
		r.ID, r.Proof, r.ToMove = PosID(id), np.proof(a), game.Color(tm)
		out = append(out, r)
	}
	if err := rows.Close(); err != nil {
		return nil, err
	}
	mask, err := bk.proofMask(ctx)
	if err != nil {
		return nil, err
	}
	for i := range out {
		mask(&out[i].Proof)
	}
	for i := range out {
		var err error
		if out[i].Turns, err = bk.StableTurns(ctx, out[i].ID); err != nil && !errors.Is(err, ErrNotFound) {
			return nil, err
		}
	}
	return out, nil
}

// Item is a move a defender-to-move position's proof still needs proved:
// an unsolved move, an open seminull stone (one-stone move) whose seminull
// position is not proved yet, or a move (s, x) inside the zone of a proved
// seminull position. Move is in the position's canonical frame.
type Item struct {
	Move  game.Move
	ID    PosID // the child, 0 when not stored
	Proof c6book.Proof
	// Reason is why the verifier left the move unsolved (threat.Reason*:
	// "budget", "exhausted", "lost", "cancelled"; see ReasonText), "" for
	// a move it did not list (inside a seminull zone).
	Reason threat.UnsolvedReason
}

// Items lists the open items of position id's verdict for attacker: what
// is left to prove before the position is. Nil when the verdict cannot
// count (none, another attacker, no certificate, other tolerance).
func (bk *Book) Items(ctx context.Context, id PosID, attacker game.Color) ([]Item, error) {
	list, tm, err := loadPos(ctx, bk.r, bk.rules, id)
	if err != nil {
		return nil, err
	}
	if tm == attacker {
		return nil, nil
	}
	v, err := loadVerdict(ctx, bk.r, id)
	if err != nil {
		return nil, err
	}
	b := bk.board(list, tm)
	if !c6book.VerdictCounts(b, attacker, v) {
		return nil, nil
	}
	items, err := bk.openItems(ctx, id, attacker, b, v)
	if err != nil {
		return nil, err
	}
	mask, err := bk.proofMask(ctx)
	if err != nil {
		return nil, err
	}
	for i := range items {
		mask(&items[i].Proof)
	}
	return items, nil
}

// openItems lists the items of verdict v of position id (canonical board
// b) that are not proved; the caller has checked that v counts.
func (bk *Book) openItems(ctx context.Context, id PosID, attacker game.Color, b *board.Board, v *c6book.Verdict) ([]Item, error) {
	kids, err := readChildren(ctx, bk.r, bk.rules, id, attacker)
	if err != nil {
		return nil, err
	}
	it, err := c6book.ProofItems(b, attacker, v, proofChildren(kids))
	if err != nil {
		return nil, err
	}
	reasons := map[int64]threat.UnsolvedReason{}
	for _, u := range append(append([]c6book.Unsolved(nil), v.Unsolved...), v.OpenSeminull...) {
		reasons[packMove(u.Move)] = u.Reason
	}
	var out []Item
	for _, x := range it.Items {
		item := Item{Move: x.Move, Proof: defaultProof(attacker), Reason: reasons[packMove(x.Move)]}
		if x.Child >= 0 {
			item.ID, item.Proof = kids[x.Child].id, kids[x.Child].proof
		}
		if item.Proof.Status != c6book.StatusProved {
			out = append(out, item)
		}
	}
	return out, nil
}
