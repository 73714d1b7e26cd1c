package proofbook

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"

	"c6book"
	"c6book/engine/board"
	"c6book/engine/game"
)

// Twins (table twin, schema version 11; the rule is c6book's, HowTwin).
//
// A full attacker-to-move position P with one defender stone x taken off
// is its twin T, a position one defender stone short (tolerance 1). When
// T is proved with a zone that misses x, P is proved: T's proof tolerates
// one more defender stone anywhere outside its zone. Below a closed
// seminull item every member of its family meets the positions of D+s's
// proof again one stone apart, so that a twin proves most of the replies
// the family's verdicts leave without another verifier call; proofcheck
// checks the rule itself (the twin's stones, its proof, the zone).

// maxTwinStones bounds the defender stones linkTwins takes off a position
// (the first in square order), each one lookup.
const maxTwinStones = 60

// linkTwins stores the twins of the positions ids (inside tx): for each
// full attacker-to-move position (the attacker is the side to move), each
// defender stone whose removal leaves a stored position. It returns the
// positions that got a new twin row (their status may change).
func (bk *Book) linkTwins(ctx context.Context, tx *sql.Tx, ids []PosID) ([]PosID, error) {
	var linked []PosID
	for _, id := range ids {
		list, tm, err := loadPos(ctx, tx, bk.rules, id)
		if err != nil {
			return nil, err
		}
		b := bk.board(list, tm)
		if !fullAttackerToMove(b) {
			continue
		}
		got := false
		for i, x := range b.StoneList(tm.Opp()) {
			if i == maxTwinStones {
				break
			}
			ok, err := bk.linkTwin(ctx, tx, id, b, 0, x)
			if err != nil {
				return nil, err
			}
			got = got || ok
		}
		if got {
			linked = append(linked, id)
		}
	}
	return linked, nil
}

// linkNew links the twins of the positions of ids this transaction
// inserted (a line or a move the expert stores; not games, which go
// through their own import) and marks those that got one for
// propagation.
func (w *wtx) linkNew(ctx context.Context, ids []PosID) error {
	var fresh []PosID
	for _, id := range ids {
		if id >= w.firstNew {
			fresh = append(fresh, id)
		}
	}
	if len(fresh) == 0 {
		return nil
	}
	linked, err := w.bk.linkTwins(ctx, w.tx, fresh)
	w.dirty = append(w.dirty, linked...)
	return err
}

// linkReplyTwins is linkTwins for the positions a defender-to-move
// position parent reaches by the moves (parent's canonical frame) to the
// children kids, looking only for the twins that take off a stone x whose
// removal from parent itself leaves a stored position: the parent of
// such a twin (so that a verdict with thousands of items, whose parent has
// no such stone, costs a few lookups).
func (bk *Book) linkReplyTwins(ctx context.Context, tx *sql.Tx, parent PosID, moves []game.Move, kids []PosID) ([]PosID, error) {
	list, tm, err := loadPos(ctx, tx, bk.rules, parent)
	if err != nil {
		return nil, err
	}
	pb := bk.board(list, tm)
	var hits []game.Square
	for i, x := range pb.StoneList(tm) {
		if i == maxTwinStones {
			break
		}
		switch _, err := bk.storedWithout(ctx, tx, pb, x); {
		case err == nil:
			hits = append(hits, x)
		case !errors.Is(err, ErrNotFound):
			return nil, err
		}
	}
	if len(hits) == 0 {
		return nil, nil
	}
	var linked []PosID
	for i, m := range moves {
		if m.Len() != bk.rules.P || m.At(0) == m.At(1) || pb.At(m.At(0)) != game.Empty || pb.At(m.At(1)) != game.Empty {
			continue // a seminull move (its position is one stone short), or not a move here
		}
		for j := 0; j < m.Len(); j++ {
			pb.Place(m.At(j), tm)
		}
		pb.SetToMove(tm.Opp())
		_, csym := pb.CanonicalKey()
		got := false
		if fullAttackerToMove(pb) {
			for _, x := range hits {
				ok, err := bk.linkTwin(ctx, tx, kids[i], pb, csym, x)
				if err != nil {
					return nil, err
				}
				got = got || ok
			}
		}
		for j := m.Len() - 1; j >= 0; j-- {
			pb.Remove(m.At(j))
		}
		pb.SetToMove(tm)
		if got {
			linked = append(linked, kids[i])
		}
	}
	return linked, nil
}

// fullAttackerToMove reports whether b is a position the twin rule
// applies to: no winner, and the side to move (the attacker) has all the
// defender's stones of full turns against it.
func fullAttackerToMove(b *board.Board) bool {
	tol, ok := b.DefenderDeficit(b.ToMove())
	return ok && tol == 0 && b.Winner() == game.Empty
}

// linkTwin stores position id's twin that takes off the defender stone x
// (b is id's board in any frame, toCanon maps it onto id's canonical
// frame), when the position is stored. It reports whether a row was added.
func (bk *Book) linkTwin(ctx context.Context, tx *sql.Tx, id PosID, b *board.Board, toCanon int, x game.Square) (bool, error) {
	d := b.ToMove().Opp()
	if b.At(x) != d {
		return false, nil
	}
	twin, err := bk.storedWithout(ctx, tx, b, x)
	if errors.Is(err, ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	res, err := tx.ExecContext(ctx, "INSERT OR IGNORE INTO twin(pos, stone, twin) VALUES (?, ?, ?)", int64(id), int(bk.rules.Transform(toCanon, x)), int64(twin))
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n > 0, err
}

// storedWithout is the stored position of board b (any frame) with its
// stone on x taken off, the same side to move (ErrNotFound when none); b
// is left as it was.
func (bk *Book) storedWithout(ctx context.Context, q queryer, b *board.Board, x game.Square) (PosID, error) {
	c := b.At(x)
	b.Remove(x)
	key, sym := b.CanonicalKey()
	enc := encodeStones(bk.rules, b, sym)
	b.Place(x, c)
	return findPosition(ctx, q, key, enc, b.ToMove())
}

// findPosition is the stored position with canonical key key, stones enc
// and toMove to play (ErrNotFound when none).
func findPosition(ctx context.Context, q queryer, key uint64, enc []byte, toMove game.Color) (PosID, error) {
	rows, err := q.QueryContext(ctx, "SELECT id, stones, to_move FROM position WHERE key = ?", int64(key))
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	for rows.Next() {
		var pid int64
		var st []byte
		var tm int
		if err := rows.Scan(&pid, &st, &tm); err != nil {
			return 0, err
		}
		if bytes.Equal(st, enc) && game.Color(tm) == toMove {
			return PosID(pid), nil
		}
	}
	if err := rows.Err(); err != nil {
		return 0, err
	}
	return 0, ErrNotFound
}

// LinkTwins stores the twins of the positions ids (see linkTwins) and
// propagates the statuses they change. It returns the number of positions
// that got a new twin.
func (bk *Book) LinkTwins(ctx context.Context, ids []PosID) (int, error) {
	var n int
	err := bk.write(ctx, func(tx *sql.Tx) error {
		linked, err := bk.linkTwins(ctx, tx, ids)
		if err != nil {
			return err
		}
		n = len(linked)
		if len(linked) == 0 {
			return nil
		}
		return propagate(ctx, bk, tx, linked)
	})
	return n, err
}

// readTwins lists position id's twins with their proofs for attacker a
// (zones in the twins' canonical frames).
func readTwins(ctx context.Context, q queryer, r game.Rules, id PosID, a game.Color) ([]c6book.ProofTwin, error) {
	out, _, err := readTwinProofs(ctx, q, r, id, a)
	return out, err
}

// readTwinProofs is readTwins with the twins' ids (ids[i] is out[i]'s).
func readTwinProofs(ctx context.Context, q queryer, r game.Rules, id PosID, a game.Color) (out []c6book.ProofTwin, ids []PosID, err error) {
	rows, err := q.QueryContext(ctx, `
SELECT t.stone, t.twin, s.status, s.ord, s.how, s.expert, s.pn, s.dn, s.updated_at, `+zoneCols+`
FROM twin t LEFT JOIN status s ON s.pos = t.twin AND s.attacker = ?
WHERE t.pos = ? ORDER BY t.stone`, int(a), int64(id))
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var stone, twin int64
		var np nullProof
		if err := rows.Scan(&stone, &twin, &np.status, &np.ord, &np.how, &np.expert, &np.pn, &np.dn, &np.updated, &np.zone, &np.hasZone); err != nil {
			return nil, nil, err
		}
		if stone < 0 || stone >= int64(r.Squares()) {
			return nil, nil, fmt.Errorf("position %d: twin stone %d off the board", id, stone)
		}
		pr := np.proof(a)
		if pr.Zone, err = np.zoneOf(r); err != nil {
			return nil, nil, fmt.Errorf("position %d: %w", twin, err)
		}
		out = append(out, c6book.ProofTwin{Stone: game.Square(stone), Proof: pr})
		ids = append(ids, PosID(twin))
	}
	return out, ids, rows.Err()
}

// twinsOf lists the positions whose twin is id (their status follows id's).
func twinsOf(ctx context.Context, q queryer, id PosID) ([]PosID, error) {
	return queryIDs(ctx, q, "SELECT pos FROM twin WHERE twin = ?", int64(id))
}

// Twin is a stored twin of a position: Stone (a defender stone, in the
// position's canonical frame) taken off leaves position ID.
type Twin struct {
	Stone game.Square
	ID    PosID
}

// Twins lists the stored twins of position id.
func (bk *Book) Twins(ctx context.Context, id PosID) ([]Twin, error) {
	return storedTwins(ctx, bk.r, id)
}

// ProvingTwin is the twin the proof of position id for attacker a rests
// on when it is proved by a twin (c6book.ProvingTwin: the stone, in id's
// canonical frame, and the twin's id); ok is false when no stored twin
// proves it.
func (bk *Book) ProvingTwin(ctx context.Context, id PosID, a game.Color) (tw Twin, ok bool, err error) {
	b, err := bk.Board(ctx, id)
	if err != nil {
		return Twin{}, false, err
	}
	proofs, ids, err := readTwinProofs(ctx, bk.r, bk.rules, id, a)
	if err != nil {
		return Twin{}, false, err
	}
	i, _, ok := c6book.ProvingTwin(b, a, proofs)
	if !ok {
		return Twin{}, false, nil
	}
	return Twin{Stone: proofs[i].Stone, ID: ids[i]}, true, nil
}

// storedTwins reads position id's twin rows, by stone.
func storedTwins(ctx context.Context, q queryer, id PosID) ([]Twin, error) {
	rows, err := q.QueryContext(ctx, "SELECT stone, twin FROM twin WHERE pos = ? ORDER BY stone", int64(id))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Twin
	for rows.Next() {
		var stone, twin int64
		if err := rows.Scan(&stone, &twin); err != nil {
			return nil, err
		}
		out = append(out, Twin{Stone: game.Square(stone), ID: PosID(twin)})
	}
	return out, rows.Err()
}

// twinSchema is the schema version that stores twins
// (migrations/0011_twins.sql).
const twinSchema = 11

// linkStoredTwins links the twins of a book upgraded to twinSchema: the
// positions its verdicts' items reach (the prover's positions; a book of
// imported games is not searched through), then propagates what they
// prove. digest as for trueOrders. It returns a note with the count of
// positions proved by a twin.
func linkStoredTwins(ctx context.Context, tx *sql.Tx, path string, digest bool) (string, error) {
	tmp := &Book{path: path, noDigest: !digest}
	if err := tmp.loadMeta(ctx, tx); err != nil {
		return "", err
	}
	ids, err := queryIDs(ctx, tx, "SELECT DISTINCT e.child FROM edge e JOIN verdict v ON v.pos = e.parent ORDER BY e.child")
	if err != nil {
		return "", err
	}
	linked, err := tmp.linkTwins(ctx, tx, ids)
	if err != nil || len(linked) == 0 {
		return "", err
	}
	if err := propagate(ctx, tmp, tx, linked); err != nil {
		return "", err
	}
	var n int64
	if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM status WHERE how = ?", string(c6book.HowTwin)).Scan(&n); err != nil {
		return "", err
	}
	if n == 0 {
		return "", nil
	}
	return fmt.Sprintf("upgraded to twins: %d positions proved by a twin", n), nil
}
