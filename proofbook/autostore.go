package proofbook

import (
	"c6book/engine/board"
	"c6book/engine/game"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"c6book"
)

// What the auto-pilot (package autopilot) stores and reads: each method
// persists or reads, and decides nothing. The auto-pilot's own rows are
// autopilot_move (the moves it proposed, by rank, with the player's
// score), autopilot_exhausted (positions without further candidates) and
// hold (positions left to the expert); the rest is the book's positions,
// moves, statuses and verdicts, read as stored (a proof is not masked as
// "unchecked" here: the auto-pilot re-checks a proof it reports with
// ConfirmProof).

// AutoNode is what the book stores about a position for the auto-pilot,
// for one attacker.
type AutoNode struct {
	ToMove, Winner game.Color
	// Proof is the attacker's stored status (c6book.LeafProof when none),
	// as stored: its Zone is read too.
	Proof c6book.Proof
	// Held: an expert keeps the position for the attacker (SetHold).
	Held bool
	// Exhausted is the candidate count SetExhausted stored for the
	// position (0: none).
	Exhausted int
	// Verdict is the stored verdict of a position with the defender to
	// move and no winner, read without its certificate (HasCert: one is
	// stored); nil when none, or for any other position.
	Verdict *c6book.Verdict
	HasCert bool
}

// AutoNode reads position id's AutoNode for attacker a (ErrNotFound when
// the book has no such position).
func (bk *Book) AutoNode(ctx context.Context, id PosID, a game.Color) (AutoNode, error) {
	pi, err := readInfo(ctx, bk.r, id)
	if err != nil {
		return AutoNode{}, err
	}
	n := AutoNode{ToMove: pi.toMove, Winner: pi.winner}
	if n.Proof, _, err = readProof(ctx, bk.r, bk.rules, id, a); err != nil {
		return AutoNode{}, err
	}
	if n.Held, err = bk.held(ctx, bk.r, id, a); err != nil {
		return AutoNode{}, err
	}
	err = bk.r.QueryRowContext(ctx, "SELECT cands FROM autopilot_exhausted WHERE pos = ?", int64(id)).Scan(&n.Exhausted)
	switch {
	case errors.Is(err, sql.ErrNoRows):
	case err != nil:
		return AutoNode{}, err
	}
	if n.ToMove == a || n.Winner != game.Empty {
		return n, nil
	}
	n.Verdict, n.HasCert, err = loadVerdictData(ctx, bk.r, id)
	return n, err
}

// AutoEdge is a stored move as the auto-pilot reads it.
type AutoEdge struct {
	Parent, Child PosID
	Move          game.Move  // in the parent's canonical frame, as stored
	ParentToMove  game.Color // the side that plays Move (AutoParents only)
	// Auto: the auto-pilot proposed the move (AddAutoMoves), at Rank in its
	// candidate list, with the player's Score when Scored.
	Auto   bool
	Rank   int64
	Score  float64
	Scored bool
	// Games are the imported games through the child position.
	Games c6book.GameStats
	// Proof is the child's stored status for the attacker asked about
	// (AutoMoves only; its Zone is not read).
	Proof c6book.Proof
}

// AutoMoves lists the stored moves of position id, in stored move order,
// with the child's status for attacker a.
func (bk *Book) AutoMoves(ctx context.Context, id PosID, a game.Color) ([]AutoEdge, error) {
	rows, err := bk.r.QueryContext(ctx, `
SELECT e.move, e.child, m.rank, m.score, p.games, p.bwins, p.wwins, s.status, s.ord, s.how, s.expert, s.pn, s.dn, s.updated_at
FROM edge e
LEFT JOIN autopilot_move m ON m.parent = e.parent AND m.move = e.move
JOIN position p ON p.id = e.child
LEFT JOIN status s ON s.pos = e.child AND s.attacker = ?
WHERE e.parent = ? ORDER BY e.move`, int(a), int64(id))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []AutoEdge
	for rows.Next() {
		var mv, child int64
		var c autoCols
		var np nullProof
		if err := rows.Scan(&mv, &child, &c.rank, &c.score, &c.games, &c.bw, &c.ww,
			&np.status, &np.ord, &np.how, &np.expert, &np.pn, &np.dn, &np.updated); err != nil {
			return nil, err
		}
		e := AutoEdge{Parent: id, Child: PosID(child), Proof: np.proof(a)}
		c.fill(&e)
		if e.Move, err = unpackMove(mv); err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

// AutoParents lists the stored moves that lead to position id, ordered by
// parent and move.
func (bk *Book) AutoParents(ctx context.Context, id PosID) ([]AutoEdge, error) {
	rows, err := bk.r.QueryContext(ctx, `
SELECT e.parent, e.move, q.to_move, m.rank, m.score, p.games, p.bwins, p.wwins FROM edge e
JOIN position q ON q.id = e.parent
LEFT JOIN autopilot_move m ON m.parent = e.parent AND m.move = e.move
JOIN position p ON p.id = e.child
WHERE e.child = ? ORDER BY e.parent, e.move`, int64(id))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []AutoEdge
	for rows.Next() {
		var parent, mv int64
		var tm int
		var c autoCols
		if err := rows.Scan(&parent, &mv, &tm, &c.rank, &c.score, &c.games, &c.bw, &c.ww); err != nil {
			return nil, err
		}
		e := AutoEdge{Parent: PosID(parent), Child: id, ParentToMove: game.Color(tm)}
		c.fill(&e)
		if e.Move, err = unpackMove(mv); err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

// autoCols are the columns of an AutoEdge both queries read: the
// auto-pilot's rank and score of the move, the child's games.
type autoCols struct {
	rank          sql.NullInt64
	score         sql.NullFloat64
	games, bw, ww int64
}

func (c autoCols) fill(e *AutoEdge) {
	e.Auto, e.Rank = c.rank.Valid, c.rank.Int64
	e.Scored, e.Score = c.score.Valid, c.score.Float64
	e.Games = gameStats(c.games, c.bw, c.ww)
}

// OpenItems lists the items of verdict v of position id (canonical board
// b, defender to move) that are not proved for attacker, the statuses as
// stored; the caller has checked that v counts (c6book.VerdictCounts).
func (bk *Book) OpenItems(ctx context.Context, id PosID, attacker game.Color, b *board.Board, v *c6book.Verdict) ([]Item, error) {
	return bk.openItems(ctx, id, attacker, b, v)
}

// ConfirmProof re-checks the stored proof of position id for attacker a
// from its certificates with proofcheck (confirmProof): true when it
// checks, false when the position is not (or, derived again, no longer)
// proved.
func (bk *Book) ConfirmProof(ctx context.Context, id PosID, a game.Color) (bool, error) {
	return bk.confirmProof(ctx, id, a)
}

// AddAutoMoves stores the candidate moves (id's canonical frame) not stored
// yet as moves of id, marked as the auto-pilot's with the player's scores
// (nil: none recorded), in one transaction; it returns how many moves it
// added and how many positions, and the position each move added leads to
// (0 for a move stored already).
func (bk *Book) AddAutoMoves(ctx context.Context, id PosID, moves []game.Move, scores []float64) (added, positions int, kids []PosID, err error) {
	err = bk.writeRetry(ctx, func(tx *sql.Tx) error {
		added, positions = 0, 0
		kids = make([]PosID, len(moves))
		last, err := lastPosition(ctx, tx)
		if err != nil {
			return err
		}
		w, list, b, err := bk.walkFrom(ctx, tx, id)
		if err != nil {
			return err
		}
		stab := stabilizer(bk.rules, list)
		rank, err := nextAutoRank(ctx, tx, id)
		if err != nil {
			return err
		}
		for i, m := range moves {
			pm := packMove(repMove(bk.rules, stab, m))
			var one int
			switch err := tx.QueryRowContext(ctx, "SELECT 1 FROM edge WHERE parent = ? AND move = ?", int64(id), pm).Scan(&one); {
			case err == nil:
				continue // stored already (by hand, or by an earlier batch)
			case !errors.Is(err, sql.ErrNoRows):
				return err
			}
			next, err := w.step(ctx, b, node{id: id, list: list}, m, false)
			if err != nil {
				return fmt.Errorf("candidate %s: %w", game.MoveName(bk.rules, m), err)
			}
			kids[i] = next.id
			if err := b.Undo(); err != nil {
				return err
			}
			var score any // NULL: none recorded
			if i < len(scores) {
				score = scores[i]
			}
			if err := markAutoMove(ctx, tx, id, pm, rank, score); err != nil {
				return err
			}
			rank++
			added++
		}
		if err := w.finish(ctx); err != nil {
			return err
		}
		positions, err = positionsAfter(ctx, tx, last)
		return err
	})
	return added, positions, kids, err
}

// SetExhausted stores that position id has no further candidate moves
// among the first cands (the larger count when one is stored).
func (bk *Book) SetExhausted(ctx context.Context, id PosID, cands int) error {
	return bk.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO autopilot_exhausted(pos, cands) VALUES (?, ?)
ON CONFLICT(pos) DO UPDATE SET cands = max(cands, excluded.cands)`, int64(id), cands)
		return err
	})
}

// held reports whether an expert holds position id for attacker a.
func (bk *Book) held(ctx context.Context, q queryer, id PosID, a game.Color) (bool, error) {
	var one int
	err := q.QueryRowContext(ctx, "SELECT 1 FROM hold WHERE pos = ? AND attacker = ?", int64(id), int(a)).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	return err == nil, err
}

// Held reports whether an expert keeps position id for attacker ("leave to
// me"): the auto-pilot does not work at or below it.
func (bk *Book) Held(ctx context.Context, id PosID, attacker game.Color) (bool, error) {
	return bk.held(ctx, bk.r, id, attacker)
}

// SetHold marks (on) or unmarks position id as left to the expert for
// attacker: the auto-pilot skips it and everything below it.
func (bk *Book) SetHold(ctx context.Context, id PosID, attacker game.Color, on bool) error {
	if attacker != game.Black && attacker != game.White {
		return errors.New("attacker must be Black or White")
	}
	return bk.write(ctx, func(tx *sql.Tx) error {
		if _, err := readInfo(ctx, tx, id); err != nil {
			return err
		}
		if !on {
			_, err := tx.ExecContext(ctx, "DELETE FROM hold WHERE pos = ? AND attacker = ?", int64(id), int(attacker))
			return err
		}
		_, err := tx.ExecContext(ctx, "INSERT INTO hold(pos, attacker, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
			int64(id), int(attacker), time.Now().Unix())
		return err
	})
}

// autoMove reports whether the stored move m of position id (canonical
// frame) was proposed by the auto-pilot rather than made by hand.
func (bk *Book) autoMove(ctx context.Context, id PosID, m game.Move) (bool, error) {
	list, _, err := loadPos(ctx, bk.r, bk.rules, id)
	if err != nil {
		return false, err
	}
	pm := packMove(repMove(bk.rules, stabilizer(bk.rules, list), m))
	var one int
	err = bk.r.QueryRowContext(ctx, "SELECT 1 FROM autopilot_move WHERE parent = ? AND move = ?", int64(id), pm).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	return err == nil, err
}

// nextAutoRank is the rank after the auto-pilot's last move at position id
// (0 when it has none there).
func nextAutoRank(ctx context.Context, tx *sql.Tx, id PosID) (int64, error) {
	var rank int64
	err := tx.QueryRowContext(ctx, "SELECT COALESCE(MAX(rank), -1) + 1 FROM autopilot_move WHERE parent = ?", int64(id)).Scan(&rank)
	return rank, err
}

// markAutoMove records the stored move pm (packed) at position id as the
// auto-pilot's, at rank, with the player's score (nil: none).
func markAutoMove(ctx context.Context, tx *sql.Tx, id PosID, pm, rank int64, score any) error {
	_, err := tx.ExecContext(ctx, "INSERT INTO autopilot_move(parent, move, rank, score) VALUES (?, ?, ?, ?)", int64(id), pm, rank, score)
	return err
}
