package proofbook

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"c6book"
	"c6book/engine/board"
	"c6book/engine/game"
)

// What the file formats (package bookfile) and the books that travel
// (package bookmerge) store and read: one write transaction over the tree
// (WriteTree), the stored moves of a position (Edges), notes added without
// losing text (TreeTx.AddNote), game records.

// Edge is a stored move of a position: the move (the parent's canonical
// frame), the position it leads to and, when asked for an attacker, the
// child's stored proof for it (zone included).
type Edge struct {
	Move  game.Move
	Child PosID
	Proof c6book.Proof
}

// Edges lists the stored moves of position id in stored move order; with
// attacker Black or White each carries the child's proof for attacker as
// stored (not masked: see Position), else the zero proof.
func (bk *Book) Edges(ctx context.Context, id PosID, attacker game.Color) ([]Edge, error) {
	if attacker == game.Black || attacker == game.White {
		rows, err := readChildren(ctx, bk.r, bk.rules, id, attacker)
		out := make([]Edge, len(rows))
		for i, c := range rows {
			out[i] = Edge{Move: c.move, Child: c.id, Proof: c.proof}
		}
		return out, err
	}
	rows, err := bk.r.QueryContext(ctx, "SELECT move, child FROM edge WHERE parent = ? ORDER BY move", int64(id))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Edge
	for rows.Next() {
		var mv, c int64
		if err := rows.Scan(&mv, &c); err != nil {
			return nil, err
		}
		m, err := unpackMove(mv)
		if err != nil {
			return nil, err
		}
		out = append(out, Edge{Move: m, Child: PosID(c)})
	}
	return out, rows.Err()
}

// childIDs lists the children of a position in stored move order.
func (bk *Book) childIDs(ctx context.Context, id PosID) ([]PosID, error) {
	return queryIDs(ctx, bk.r, "SELECT child FROM edge WHERE parent = ? ORDER BY move", int64(id))
}

// queryIDs runs a query whose rows are one position id each.
func queryIDs(ctx context.Context, db queryer, q string, args ...any) ([]PosID, error) {
	rows, err := db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []PosID
	for rows.Next() {
		var c int64
		if err := rows.Scan(&c); err != nil {
			return nil, err
		}
		out = append(out, PosID(c))
	}
	return out, rows.Err()
}

func queryStrings(ctx context.Context, db queryer, q string, args ...any) ([]string, error) {
	rows, err := db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

// TreeTx is one write transaction over the book's tree (WriteTree): a walk
// from the root that stores moves, notes and games as it reads them.
type TreeTx struct{ w *wtx }

// Node is a stored position a TreeTx walk has reached: its id, and the
// symmetry that maps the walked board onto the position's canonical frame.
type Node struct{ n node }

// ID is the node's position.
func (n Node) ID() PosID { return n.n.id }

// WriteTree runs fn in one write transaction, from the empty board's node
// root: on any error nothing is written. It returns the positions and
// moves the transaction added.
func (bk *Book) WriteTree(ctx context.Context, fn func(tx *TreeTx, root Node) error) (positions, edges int, err error) {
	err = bk.write(ctx, func(tx *sql.Tx) error {
		w, err := bk.newWtx(ctx, tx)
		if err != nil {
			return err
		}
		if err := fn(&TreeTx{w: w}, Node{node{id: bk.root}}); err != nil {
			return err
		}
		positions, edges = w.added, w.edges
		return w.finish(ctx)
	})
	if err != nil {
		return 0, 0, err
	}
	return positions, edges, nil
}

// Step plays move m (in b's own frame) on b from the stored position at
// and returns the child, adding the move and the position when new. With
// partial, a turn may place fewer stones (null and seminull moves). On
// error b is unchanged.
func (t *TreeTx) Step(ctx context.Context, b *board.Board, at Node, m game.Move, partial bool) (Node, error) {
	n, err := t.w.step(ctx, b, at.n, m, partial)
	return Node{n}, err
}

// AddNote adds a comment, a label and marks (in the frame of the board
// the walk reached at on) to at's note without losing what is there (see
// addNote). It reports whether the note changed.
func (t *TreeTx) AddNote(ctx context.Context, at Node, comment, label string, marks []Mark) (bool, error) {
	r := t.w.bk.rules
	marks = append([]Mark(nil), marks...)
	for i := range marks {
		marks[i].Square = r.Transform(at.n.sym, marks[i].Square)
	}
	return t.w.addNote(ctx, at.n.id, comment, label, marks)
}

// AddGame stores a game whose turns (as played) reached the positions
// path (the root first, one per turn after it) for the statistics, unless
// a game (source, extID) is stored already (added false); result is its
// winner (Empty: unfinished).
func (t *TreeTx) AddGame(ctx context.Context, source, extID string, path []PosID, turns []game.Move, result game.Color) (added bool, err error) {
	var known int
	if err := t.w.tx.QueryRowContext(ctx, "SELECT count(*) FROM game WHERE source = ? AND ext_id = ?", source, extID).Scan(&known); err != nil || known > 0 {
		return false, err
	}
	return true, t.w.addGame(ctx, source, extID, path, writtenOf(turns), result)
}

// addNote adds a comment, a label and marks (canonical frame) to position
// id's note without losing what is there: a new comment is appended below
// the stored one unless the stored one holds it already, a label fills an
// empty label (a different one is appended to the comment as "Label: x",
// so that no text is lost), and marks not stored yet are added. Adding the
// same note again changes nothing. It reports whether the note changed.
// (The SGF import, TreeTx.AddNote, and the copies between books, CopyPositions.)
func (w *wtx) addNote(ctx context.Context, id PosID, comment, label string, marks []Mark) (bool, error) {
	if comment == "" && label == "" && len(marks) == 0 {
		return false, nil
	}
	var oc, ol, om string
	err := w.tx.QueryRowContext(ctx, "SELECT comment, label, marks FROM note WHERE pos = ?", int64(id)).Scan(&oc, &ol, &om)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return false, err
	}
	nc, nl := oc, ol
	appendText := func(text string) {
		if text != "" && !strings.Contains(nc, text) {
			if nc != "" {
				nc += "\n\n"
			}
			nc += text
		}
	}
	appendText(comment)
	if nl == "" {
		nl = label
	} else if label != "" && label != nl {
		appendText("Label: " + label)
	}
	var old []Mark
	if om != "" {
		if err := json.Unmarshal([]byte(om), &old); err != nil {
			return false, fmt.Errorf("stored marks: %w", err)
		}
	}
	merged := old
	for _, mk := range marks {
		dup := false
		for _, o := range old {
			if o == mk {
				dup = true
				break
			}
		}
		if !dup {
			merged = append(merged, mk)
		}
	}
	nm := om
	if len(merged) != len(old) {
		data, err := json.Marshal(merged)
		if err != nil {
			return false, err
		}
		nm = string(data)
	}
	if nc == oc && nl == ol && nm == om {
		return false, nil
	}
	_, err = w.tx.ExecContext(ctx, `INSERT INTO note(pos, comment, label, marks, updated_at) VALUES (?, ?, ?, ?, ?)
ON CONFLICT(pos) DO UPDATE SET comment = excluded.comment, label = excluded.label, marks = excluded.marks, updated_at = excluded.updated_at`,
		int64(id), nc, nl, nm, w.now)
	return err == nil, err
}
