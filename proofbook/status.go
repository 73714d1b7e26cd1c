package proofbook

import (
	"container/heap"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"c6book/engine"
)

// Status propagation. For attacker a, a position's status follows from its
// stored children and its stored verdict alone (local rules), so a book is
// consistent when every status row equals its local recomputation, and a
// change is propagated by recomputing the changed position and, while
// values change, its ancestors (deepest first):
//
//   - the attacker has k in a row: proved (order 0); the defender has: disproved;
//   - an expert marked the position disproved: disproved (sticky);
//   - attacker to move (OR): proved when some stored move is proved (order:
//     the smallest); pn = min, dn = sum over the moves not disproved; no
//     moves: an unexplored leaf, 1/1;
//   - defender to move (AND): disproved when a stored full defender move is
//     disproved. Proved when the stored verdict (same attacker) bounds the
//     defence (not AllUnsolved) and every item it leaves — each unsolved
//     move and each open seminull move — is a stored child that is proved;
//     the replies outside the items are covered by the verdict's zone
//     argument. pn = sum, dn = min over the items (a missing item counts
//     1/1). Without a verdict the position is a leaf, 1/1, that needs the
//     verifier;
//   - a position without a status row is an unexplored leaf: unknown, 1/1.
//
// Status is "open" for positions with a verdict that is not yet proved and
// for moves leading to open or proved work; "unknown" otherwise.

type posInfo struct {
	toMove  engine.Color
	winner  engine.Color
	nstones int
}

type childRow struct {
	move  engine.Move
	id    PosID
	proof Proof
}

func readInfo(ctx context.Context, q queryer, id PosID) (posInfo, error) {
	var pi posInfo
	var tm, w int
	err := q.QueryRowContext(ctx, "SELECT to_move, winner, nstones FROM position WHERE id = ?", int64(id)).Scan(&tm, &w, &pi.nstones)
	if errors.Is(err, sql.ErrNoRows) {
		return pi, fmt.Errorf("position %d: %w", id, ErrNotFound)
	}
	pi.toMove, pi.winner = engine.Color(tm), engine.Color(w)
	return pi, err
}

func readProof(ctx context.Context, q queryer, id PosID, a engine.Color) (Proof, bool, error) {
	var np nullProof
	err := q.QueryRowContext(ctx, "SELECT status, ord, how, expert, pn, dn, updated_at FROM status WHERE pos = ? AND attacker = ?", int64(id), int(a)).
		Scan(&np.status, &np.ord, &np.how, &np.expert, &np.pn, &np.dn, &np.updated)
	if errors.Is(err, sql.ErrNoRows) {
		return defaultProof(a), false, nil
	}
	if err != nil {
		return Proof{}, false, err
	}
	return np.proof(a), true, nil
}

func readChildren(ctx context.Context, q queryer, id PosID, a engine.Color) ([]childRow, error) {
	rows, err := q.QueryContext(ctx, `
SELECT e.move, e.child, s.status, s.ord, s.how, s.expert, s.pn, s.dn, s.updated_at
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
		if err := rows.Scan(&mv, &child, &np.status, &np.ord, &np.how, &np.expert, &np.pn, &np.dn, &np.updated); err != nil {
			return nil, err
		}
		m, err := unpackMove(mv)
		if err != nil {
			return nil, err
		}
		out = append(out, childRow{m, PosID(child), np.proof(a)})
	}
	return out, rows.Err()
}

func addCap(x, y int64) int64 {
	if x+y > Infinite {
		return Infinite
	}
	return x + y
}

// recompute derives the proof of position id for attacker a from its
// stored children and verdict. expert is the position's sticky flag.
func recompute(ctx context.Context, bk *Book, q queryer, id PosID, a engine.Color, expert bool) (Proof, error) {
	pi, err := readInfo(ctx, q, id)
	if err != nil {
		return Proof{}, err
	}
	p := Proof{Attacker: a, PN: 1, DN: 1, Expert: expert}
	proved := func(ord int, how string) Proof {
		p.Status, p.Order, p.How, p.PN, p.DN = StatusProved, ord, how, 0, Infinite
		return p
	}
	disproved := func(how string) Proof {
		p.Status, p.Order, p.How, p.PN, p.DN = StatusDisproved, 0, how, Infinite, 0
		return p
	}
	switch {
	case pi.winner == a:
		return proved(0, "win"), nil
	case pi.winner == a.Opp():
		return disproved("loss"), nil
	case expert:
		return disproved("expert"), nil
	}
	kids, err := readChildren(ctx, q, id, a)
	if err != nil {
		return Proof{}, err
	}
	if pi.toMove == a {
		if len(kids) == 0 {
			return p, nil
		}
		best, pn, dn, work := -1, Infinite, int64(0), false
		for _, c := range kids {
			switch c.proof.Status {
			case StatusProved:
				if best < 0 || c.proof.Order < best {
					best = c.proof.Order
				}
			case StatusOpen:
				work = true
			}
			if c.proof.PN < pn {
				pn = c.proof.PN
			}
			dn = addCap(dn, c.proof.DN)
		}
		if best >= 0 {
			return proved(best, "move"), nil
		}
		p.PN, p.DN = pn, dn
		if pn >= Infinite {
			// Every stored move is refuted; the attacker needs a new one.
			p.PN, p.DN = 1, 1
		}
		if work {
			p.Status = StatusOpen
		}
		return p, nil
	}
	// Defender to move.
	full := bk.rules.P
	if pi.nstones == 0 {
		full = bk.rules.Q
	}
	for _, c := range kids {
		if c.proof.Status == StatusDisproved && (c.move.Len() >= full || c.proof.How == "loss") {
			return disproved("reply"), nil
		}
	}
	v, err := loadVerdict(ctx, q, id)
	if err != nil {
		return Proof{}, err
	}
	if v == nil || v.Attacker != a || !v.Closed() {
		if v != nil && v.Attacker == a {
			p.Status = StatusOpen
		}
		return p, nil
	}
	items := v.Items()
	if len(items) == 0 {
		if v.Status == engine.StatusProved {
			return proved(v.Order, "verdict"), nil
		}
		p.Status = StatusOpen // an open verdict without items: keep working
		return p, nil
	}
	list, _, err := loadPos(ctx, q, bk.rules, id)
	if err != nil {
		return Proof{}, err
	}
	stab := stabilizer(bk.rules, list)
	byMove := make(map[int64]Proof, len(kids))
	for _, c := range kids {
		byMove[packMove(c.move)] = c.proof
	}
	ord := v.Order
	if ord < v.Lambda {
		ord = v.Lambda
	}
	all := true
	pn, dn := int64(0), Infinite
	for _, m := range items {
		cp, ok := byMove[packMove(repMove(bk.rules, stab, m))]
		if !ok {
			cp = defaultProof(a)
		}
		if cp.Status != StatusProved {
			all = false
		} else if cp.Order > ord {
			ord = cp.Order
		}
		pn = addCap(pn, cp.PN)
		if cp.DN < dn {
			dn = cp.DN
		}
	}
	if all {
		return proved(ord, "verdict"), nil
	}
	p.Status, p.PN, p.DN = StatusOpen, pn, dn
	return p, nil
}

func sameProof(x, y Proof) bool {
	return x.Status == y.Status && x.Order == y.Order && x.How == y.How && x.Expert == y.Expert && x.PN == y.PN && x.DN == y.DN
}

// pqItem orders positions deepest first.
type pqItem struct {
	id      PosID
	nstones int
	toMove  engine.Color
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
	for a := engine.Black; a <= engine.White; a++ {
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
			old, exists, err := readProof(ctx, tx, it.id, a)
			if err != nil {
				return err
			}
			np, err := recompute(ctx, bk, tx, it.id, a, old.Expert)
			if err != nil {
				return err
			}
			if sameProof(old, np) {
				continue
			}
			if !exists || !sameProof(old, np) {
				if _, err := tx.ExecContext(ctx, `INSERT INTO status(pos, attacker, status, ord, how, expert, pn, dn, updated_at)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT(pos, attacker) DO UPDATE SET status = excluded.status, ord = excluded.ord, how = excluded.how,
  expert = excluded.expert, pn = excluded.pn, dn = excluded.dn, updated_at = excluded.updated_at`,
					int64(it.id), int(a), int(np.Status), np.Order, np.How, boolInt(np.Expert), np.PN, np.DN, now); err != nil {
					return err
				}
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
			for _, p := range parents {
				if err := push(p); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// SetDisproved marks (or, with on=false, unmarks) position id as disproved
// by an expert for attacker, and propagates.
func (bk *Book) SetDisproved(ctx context.Context, id PosID, attacker engine.Color, on bool) error {
	if attacker != engine.Black && attacker != engine.White {
		return errors.New("attacker must be Black or White")
	}
	return bk.write(ctx, func(tx *sql.Tx) error {
		if _, err := readInfo(ctx, tx, id); err != nil {
			return err
		}
		old, _, err := readProof(ctx, tx, id, attacker)
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
// children, and propagates the statuses.
func (bk *Book) StoreVerdict(ctx context.Context, id PosID, v Verdict) error {
	if v.Attacker != engine.Black && v.Attacker != engine.White {
		return errors.New("verdict: attacker must be Black or White")
	}
	if v.Status != engine.StatusProved && v.Status != engine.StatusOpen {
		return fmt.Errorf("verdict: status %q", v.Status)
	}
	data, err := marshalVerdict(v)
	if err != nil {
		return err
	}
	return bk.writeRetry(ctx, func(tx *sql.Tx) error {
		w, err := bk.newWtx(ctx, tx)
		if err != nil {
			return err
		}
		list, tm, err := loadPos(ctx, tx, bk.rules, id)
		if err != nil {
			return err
		}
		if tm != v.Attacker.Opp() {
			return fmt.Errorf("verdict for attacker %s on a position with %s to move", v.Attacker, tm)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO verdict(pos, attacker, status, ord, engine, data, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)
ON CONFLICT(pos) DO UPDATE SET attacker = excluded.attacker, status = excluded.status, ord = excluded.ord,
  engine = excluded.engine, data = excluded.data, created_at = excluded.created_at`,
			int64(id), int(v.Attacker), v.Status, v.Order, v.Engine, data, time.Now().Unix()); err != nil {
			return err
		}
		b, err := setUp(bk.rules, list, tm)
		if err != nil {
			return err
		}
		for _, m := range v.Items() {
			if _, err := w.step(ctx, b, node{id: id, list: list}, m, true); err != nil {
				return fmt.Errorf("verdict item %s: %w", engine.MoveName(bk.rules, m), err)
			}
			if err := b.Undo(); err != nil {
				return err
			}
		}
		return propagate(ctx, bk, tx, append(w.dirty, id))
	})
}

// Next returns the most-proving position below from for attacker: at the
// attacker's turns the move with the smallest proof number, at the
// defender's turns (with a verdict) the item with the smallest disproof
// number, down to a position that needs work (a verifier run, or an
// attacker move). The line starts at from, in from's canonical frame.
func (bk *Book) Next(ctx context.Context, from PosID, attacker engine.Color) (Line, error) {
	line := Line{IDs: []PosID{from}}
	cur := from
	for steps := 0; steps < 10000; steps++ {
		pr, _, err := readProof(ctx, bk.r, cur, attacker)
		if err != nil {
			return Line{}, err
		}
		pi, err := readInfo(ctx, bk.r, cur)
		if err != nil {
			return Line{}, err
		}
		if pr.Status == StatusProved || pr.Status == StatusDisproved || pi.winner != engine.Empty {
			if steps == 0 {
				return line, fmt.Errorf("position %d is already %s for %s", cur, pr.Status, attacker)
			}
			return line, nil
		}
		kids, err := readChildren(ctx, bk.r, cur, attacker)
		if err != nil {
			return Line{}, err
		}
		var pick *childRow
		if pi.toMove == attacker {
			for i := range kids {
				c := &kids[i]
				if c.proof.Status == StatusDisproved || c.proof.Status == StatusProved {
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
			if v == nil || v.Attacker != attacker || !v.Closed() {
				break // needs the verifier
			}
			list, _, err := loadPos(ctx, bk.r, bk.rules, cur)
			if err != nil {
				return Line{}, err
			}
			stab := stabilizer(bk.rules, list)
			byMove := map[int64]*childRow{}
			for i := range kids {
				byMove[packMove(kids[i].move)] = &kids[i]
			}
			for _, m := range v.Items() {
				c := byMove[packMove(repMove(bk.rules, stab, m))]
				if c == nil {
					pick = nil
					break
				}
				if c.proof.Status == StatusProved {
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
func (bk *Book) OpenByPN(ctx context.Context, attacker engine.Color, limit int) ([]Ranked, error) {
	return bk.ranked(ctx, attacker, StatusOpen, limit, "ORDER BY s.pn, s.pos")
}

// Proved lists positions proved for attacker with λ order minOrder or more
// (the browsable josekis), ordered by position id. Order 0 proofs are game
// ends: the attacker has six, or makes six at once; minOrder 1 leaves them
// out.
func (bk *Book) Proved(ctx context.Context, attacker engine.Color, minOrder, limit int) ([]Ranked, error) {
	return bk.ranked(ctx, attacker, StatusProved, limit, "AND s.ord >= ? ORDER BY s.pos", max(minOrder, 0))
}

// ranked lists at most limit (default 100) positions with status st for
// attacker a; tail (with its arguments) ends the query's WHERE clause and
// orders the rows.
func (bk *Book) ranked(ctx context.Context, a engine.Color, st Status, limit int, tail string, tailArgs ...any) ([]Ranked, error) {
	if limit <= 0 {
		limit = 100
	}
	args := append(append([]any{int(a), int(st)}, tailArgs...), limit)
	rows, err := bk.r.QueryContext(ctx, `
SELECT s.pos, s.status, s.ord, s.how, s.expert, s.pn, s.dn, s.updated_at, p.nstones, COALESCE(n.label, '')
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
		if err := rows.Scan(&id, &np.status, &np.ord, &np.how, &np.expert, &np.pn, &np.dn, &np.updated, &r.Stones, &r.Label); err != nil {
			return nil, err
		}
		r.ID, r.Proof = PosID(id), np.proof(a)
		out = append(out, r)
	}
	return out, rows.Err()
}
