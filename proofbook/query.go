package proofbook

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"strings"
	"unicode"

	"c6book"
	"c6book/engine/board"
	"c6book/engine/game"
)

// reframe turns a line of stored moves (each in its parent's canonical
// frame) into turns in the canonical frame of line.IDs[0].
func (bk *Book) reframe(ctx context.Context, line Line) (Line, error) {
	if len(line.Turns) == 0 {
		return line, nil
	}
	var b *board.Board
	if line.IDs[0] == bk.root {
		b = bk.tmpl.Clone() // cheap: shares the geometry
	} else {
		var err error
		if b, err = bk.Board(ctx, line.IDs[0]); err != nil {
			return Line{}, err
		}
	}
	return reframeFrom(bk, b, line)
}

// reframeFrom is reframe from b, the board of line.IDs[0] in its canonical
// frame (b is played on).
func reframeFrom(bk *Book, b *board.Board, line Line) (Line, error) {
	out := Line{IDs: line.IDs, Turns: make([]game.Move, len(line.Turns))}
	for i, mc := range line.Turns {
		_, sym := b.CanonicalKey()
		m := FromCanonical(bk.rules, sym, mc)
		if err := b.PlayPartial(m); err != nil {
			return Line{}, fmt.Errorf("stored line, turn %d: %w", i+1, err)
		}
		out.Turns[i] = m
	}
	return out, nil
}

// PathsFromRoot returns up to max lines from the root to position id
// (shortest search first; turns in the empty board's frame). A position
// reached by transpositions has several.
func (bk *Book) PathsFromRoot(ctx context.Context, id PosID, max int) ([]Line, error) {
	if max <= 0 {
		max = 1
	}
	type edgeUp struct {
		parent PosID
		move   game.Move
	}
	parents := map[PosID][]edgeUp{}
	getParents := func(c PosID) ([]edgeUp, error) {
		if ps, ok := parents[c]; ok {
			return ps, nil
		}
		rows, err := bk.r.QueryContext(ctx, "SELECT parent, move FROM edge WHERE child = ? ORDER BY parent", int64(c))
		if err != nil {
			return nil, err
		}
		defer rows.Close()
		var ps []edgeUp
		for rows.Next() {
			var p, mv int64
			if err := rows.Scan(&p, &mv); err != nil {
				return nil, err
			}
			m, err := unpackMove(mv)
			if err != nil {
				return nil, err
			}
			ps = append(ps, edgeUp{PosID(p), m})
		}
		parents[c] = ps
		return ps, rows.Err()
	}
	var out []Line
	// Depth-first upwards, bounded by the number of lookups.
	var ids []PosID
	var moves []game.Move
	budget := 20000
	var walk func(c PosID) error
	walk = func(c PosID) error {
		if len(out) >= max || budget <= 0 {
			return nil
		}
		budget--
		ids = append(ids, c)
		defer func() { ids = ids[:len(ids)-1] }()
		if c == bk.root {
			l := Line{}
			for i := len(ids) - 1; i >= 0; i-- {
				l.IDs = append(l.IDs, ids[i])
			}
			for i := len(moves) - 1; i >= 0; i-- {
				l.Turns = append(l.Turns, moves[i])
			}
			out = append(out, l)
			return nil
		}
		ps, err := getParents(c)
		if err != nil {
			return err
		}
		for _, e := range ps {
			moves = append(moves, e.move)
			err := walk(e.parent)
			moves = moves[:len(moves)-1]
			if err != nil {
				return err
			}
		}
		return nil
	}
	if err := walk(id); err != nil {
		return nil, err
	}
	for i := range out {
		l, err := bk.reframe(ctx, out[i])
		if err != nil {
			return nil, err
		}
		out[i] = l
	}
	return out, nil
}

// Search finds positions whose comment contains every word of text (word
// prefixes match), with the full-text index.
func (bk *Book) Search(ctx context.Context, text string, limit int) ([]Hit, error) {
	if limit <= 0 {
		limit = 100
	}
	var terms []string
	for _, w := range strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		terms = append(terms, w+"*")
	}
	if len(terms) == 0 {
		return nil, nil
	}
	rows, err := bk.r.QueryContext(ctx, `
SELECT n.pos, n.comment, n.label FROM note_fts f JOIN note n ON n.pos = f.docid
WHERE note_fts MATCH ? ORDER BY n.pos LIMIT ?`, strings.Join(terms, " "), limit)
	if err != nil {
		return nil, err
	}
	return bk.scanHits(ctx, rows)
}

// Labeled lists positions with the user label (e.g. "joseki").
func (bk *Book) Labeled(ctx context.Context, label string, limit int) ([]Hit, error) {
	if limit <= 0 {
		limit = 100
	}
	rows, err := bk.r.QueryContext(ctx, "SELECT pos, comment, label FROM note WHERE label = ? AND label <> '' ORDER BY pos LIMIT ?", label, limit)
	if err != nil {
		return nil, err
	}
	return bk.scanHits(ctx, rows)
}

// scanHits reads rows of (position, comment, label) and completes each hit
// with its statuses, its stones and its stable line from the root.
func (bk *Book) scanHits(ctx context.Context, rows *sql.Rows) ([]Hit, error) {
	var out []Hit
	for rows.Next() {
		var h Hit
		var id int64
		if err := rows.Scan(&id, &h.Comment, &h.Label); err != nil {
			rows.Close()
			return nil, err
		}
		h.ID = PosID(id)
		out = append(out, h)
	}
	if err := rows.Close(); err != nil {
		return nil, err
	}
	for i := range out {
		h := &out[i]
		pi, err := readInfo(ctx, bk.r, h.ID)
		if err != nil {
			return nil, err
		}
		h.Stones, h.ToMove = pi.nstones, pi.toMove
		for a := game.Black; a <= game.White; a++ {
			if h.Proofs[a-1], _, err = readProof(ctx, bk.r, bk.rules, h.ID, a); err != nil {
				return nil, err
			}
		}
		if h.Turns, err = bk.StableTurns(ctx, h.ID); err != nil && !errors.Is(err, ErrNotFound) {
			return nil, err
		}
	}
	mask, err := bk.proofMask(ctx)
	if err != nil {
		return nil, err
	}
	for i := range out {
		for j := range out[i].Proofs {
			mask(&out[i].Proofs[j])
		}
	}
	return out, nil
}

// Stats counts the book's contents.
func (bk *Book) Stats(ctx context.Context) (Stats, error) {
	s := Stats{Rules: bk.rules, Schema: SchemaVersion()}
	for _, q := range []struct {
		dst *int64
		sql string
	}{
		{&s.Positions, "SELECT count(*) FROM position"},
		{&s.Edges, "SELECT count(*) FROM edge"},
		{&s.Games, "SELECT count(*) FROM game"},
		{&s.Notes, "SELECT count(*) FROM note"},
		{&s.Verdicts, "SELECT count(*) FROM verdict"},
	} {
		if err := bk.r.QueryRowContext(ctx, q.sql).Scan(q.dst); err != nil {
			return s, err
		}
	}
	rows, err := bk.r.QueryContext(ctx, "SELECT attacker, status, ord, count(*) FROM status GROUP BY attacker, status, ord")
	if err != nil {
		return s, err
	}
	defer rows.Close()
	for rows.Next() {
		var a, st, ord int
		var n int64
		if err := rows.Scan(&a, &st, &ord, &n); err != nil {
			return s, err
		}
		if a < 1 || a > 2 {
			continue
		}
		switch c6book.Status(st) {
		case c6book.StatusProved:
			s.Proved[a-1] += n
			s.ProvedByOrder[a-1][min(max(ord, 0), 3)] += n
		case c6book.StatusOpen:
			s.Open[a-1] += n
		case c6book.StatusDisproved:
			s.Disproved[a-1] += n
		}
	}
	if err := rows.Err(); err != nil {
		return s, err
	}
	ok, err := bk.ProofsChecked(ctx)
	if err != nil {
		return s, err
	}
	if !ok {
		s.Unchecked, s.Proved, s.ProvedByOrder = s.Proved, [2]int64{}, [2][4]int64{}
	}
	for _, suffix := range []string{"", "-wal"} {
		if fi, err := os.Stat(bk.path + suffix); err == nil {
			s.FileBytes += fi.Size()
		}
	}
	return s, rows.Err()
}
