package proofbook

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"c6book"
	"c6book/engine/game"

	"github.com/mattn/go-sqlite3"
)

// Copying between books (the bookmerge package's Merge and Split): a page
// of the source's positions as stored (ReadPositions), stored in the
// receiving book in bounded transactions (CopyPositions), each move
// replayed on its position's board so that a move the source stores
// wrongly is not copied; the verdicts, flags and games read for the copy.

// PositionPage is a page of a book's positions as stored, with their
// selected moves, the auto-pilot's marks on them and their notes, read for
// a copy to another book (CopyPositions).
type PositionPage struct {
	rows []srcPos
}

// Len is the number of positions not copied yet.
func (p *PositionPage) Len() int { return len(p.rows) }

// srcPos is one source position read before the write transaction.
type srcPos struct {
	id     PosID
	stones []byte
	toMove game.Color
	edges  [][2]int64      // packed move, child
	auto   map[int64]int64 // packed move → its rank: the auto-pilot's moves
	note   *srcNote
	twins  bool // the source links twins to it (twin.go): look for them here too
}

type srcNote struct {
	comment, label, marks string
}

// ReadPositions reads a page of the book's positions: ids when not nil
// (sorted), else at most limit positions after id after. keepEdge says
// which stored moves are read with them (parent, child). last is the id
// of the last position read (after when none: the next page starts after
// it).
func (bk *Book) ReadPositions(ctx context.Context, ids []PosID, after PosID, limit int, keepEdge func(parent, child PosID) bool) (_ *PositionPage, last PosID, err error) {
	var page []srcPos
	if ids == nil {
		rows, err := bk.r.QueryContext(ctx, "SELECT id, stones, to_move FROM position WHERE id > ? ORDER BY id LIMIT ?", int64(after), limit)
		if err != nil {
			return nil, after, err
		}
		for rows.Next() {
			var p srcPos
			var tm int
			if err := rows.Scan(&p.id, &p.stones, &tm); err != nil {
				rows.Close()
				return nil, after, err
			}
			p.toMove = game.Color(tm)
			page = append(page, p)
		}
		if err := rows.Close(); err != nil {
			return nil, after, err
		}
	} else {
		for _, id := range ids {
			p := srcPos{id: id}
			var tm int
			if err := bk.r.QueryRowContext(ctx, "SELECT stones, to_move FROM position WHERE id = ?", int64(p.id)).Scan(&p.stones, &tm); err != nil {
				return nil, after, err
			}
			p.toMove = game.Color(tm)
			page = append(page, p)
		}
	}
	out := &PositionPage{rows: page}
	if len(page) == 0 {
		return out, after, nil
	}
	return out, page[len(page)-1].id, readPage(ctx, bk, ids == nil, keepEdge, page)
}

// readPage reads the selected moves and the notes of a page of source
// positions (sorted by id): for a whole book, two range queries; for a
// split (its ids may lie far apart), per position.
func readPage(ctx context.Context, src *Book, all bool, keepEdge func(parent, child PosID) bool, page []srcPos) error {
	at := make(map[PosID]int, len(page))
	for i, p := range page {
		at[p.id] = i
	}
	edgeQ, noteQ := "SELECT parent, move, child FROM edge WHERE parent BETWEEN ? AND ? ORDER BY parent, move",
		"SELECT pos, comment, label, marks FROM note WHERE pos BETWEEN ? AND ?"
	autoQ := "SELECT parent, move, rank FROM autopilot_move WHERE parent BETWEEN ? AND ?"
	twinQ := "SELECT DISTINCT pos FROM twin WHERE pos BETWEEN ? AND ?"
	type span struct{ lo, hi PosID }
	spans := []span{{page[0].id, page[len(page)-1].id}}
	if !all {
		spans = spans[:0]
		for _, p := range page {
			spans = append(spans, span{p.id, p.id})
		}
	}
	for _, sp := range spans {
		rows, err := src.r.QueryContext(ctx, edgeQ, int64(sp.lo), int64(sp.hi))
		if err != nil {
			return err
		}
		for rows.Next() {
			var parent int64
			var e [2]int64
			if err := rows.Scan(&parent, &e[0], &e[1]); err != nil {
				rows.Close()
				return err
			}
			if i, ok := at[PosID(parent)]; ok && keepEdge(PosID(parent), PosID(e[1])) {
				page[i].edges = append(page[i].edges, e)
			}
		}
		if err := rows.Close(); err != nil {
			return err
		}
		rows, err = src.r.QueryContext(ctx, noteQ, int64(sp.lo), int64(sp.hi))
		if err != nil {
			return err
		}
		for rows.Next() {
			var pos int64
			var n srcNote
			if err := rows.Scan(&pos, &n.comment, &n.label, &n.marks); err != nil {
				rows.Close()
				return err
			}
			if i, ok := at[PosID(pos)]; ok {
				page[i].note = &n
			}
		}
		if err := rows.Close(); err != nil {
			return err
		}
		rows, err = src.r.QueryContext(ctx, autoQ, int64(sp.lo), int64(sp.hi))
		if err != nil {
			return err
		}
		for rows.Next() {
			var parent, move, rank int64
			if err := rows.Scan(&parent, &move, &rank); err != nil {
				rows.Close()
				return err
			}
			if i, ok := at[PosID(parent)]; ok {
				if page[i].auto == nil {
					page[i].auto = map[int64]int64{}
				}
				page[i].auto[move] = rank
			}
		}
		if err := rows.Close(); err != nil {
			return err
		}
		twinned, err := queryIDs(ctx, src.r, twinQ, int64(sp.lo), int64(sp.hi))
		if err != nil {
			return err
		}
		for _, pos := range twinned {
			if i, ok := at[pos]; ok {
				page[i].twins = true
			}
		}
	}
	return nil
}

// CopyCounts says what CopyPositions stored: new positions and moves,
// notes added or extended, new moves marked as the auto-pilot's (as in
// the source), and the source's moves and positions not copied (a move
// illegal on its position, stones not in canonical form) with the first
// reason.
type CopyCounts struct {
	Positions, Moves, Notes, AutoMoves int
	BadMoves, BadPositions             int
	FirstBad                           string
}

// bad records a source move or position that is not copied.
func (c *CopyCounts) bad(move bool, why string) {
	if move {
		c.BadMoves++
	} else {
		c.BadPositions++
	}
	if c.FirstBad == "" {
		c.FirstBad = oneLineText(why)
	}
}

// CopyPositions stores the first positions of page (read from another
// book of the same rules) in one transaction, with their moves and notes,
// and drops them from page: as many as fit in about DefaultMaxTxTime (one
// at least), so that other writers get the lock; after the commit the lock
// is left free for a moment (a tenth of the transaction's time).
func (bk *Book) CopyPositions(ctx context.Context, page *PositionPage) (CopyCounts, error) {
	var c CopyCounts
	var txStart time.Time
	used := 0
	cells := make([]game.Color, bk.rules.Squares())
	err := bk.writeRetry(ctx, func(tx *sql.Tx) error {
		txStart = time.Now()
		c, used = CopyCounts{}, 0
		w, err := bk.newWtx(ctx, tx)
		if err != nil {
			return err
		}
		var twinned []PosID // copied positions the source links twins to
		for used < len(page.rows) && (used == 0 || time.Since(txStart) < DefaultMaxTxTime) {
			id, err := bk.copyPosition(ctx, w, page.rows[used], &c, cells)
			if err != nil {
				return err
			}
			if id != 0 && page.rows[used].twins {
				twinned = append(twinned, id)
			}
			used++
		}
		// Their twins are copied before them (a twin is stored before the
		// positions linked to it, and pages go in id order).
		linked, err := bk.linkTwins(ctx, tx, twinned)
		if err != nil {
			return err
		}
		w.dirty = append(w.dirty, linked...)
		c.Positions, c.Moves = w.added, w.edges
		return w.finish(ctx)
	})
	if err != nil {
		return CopyCounts{}, err
	}
	page.rows = page.rows[used:]
	return c, pause(ctx, time.Since(txStart)/10)
}

// copyPosition stores one source position in the write transaction: the
// position, its selected moves (each replayed on its board; a new one the
// auto-pilot's when the source's is) and its note.
// It returns the position's id here (0 when it is not copied).
func (bk *Book) copyPosition(ctx context.Context, w *wtx, p srcPos, sum *CopyCounts, cells []game.Color) (PosID, error) {
	r := bk.rules
	list, err := decodeStones(r, p.stones)
	if err != nil {
		sum.bad(false, fmt.Sprintf("position %d: %v", p.id, err))
		return 0, nil
	}
	b, err := bk.setUpBoard(list, p.toMove)
	if err != nil {
		sum.bad(false, fmt.Sprintf("position %d: %v", p.id, err))
		return 0, nil
	}
	key, sym := b.CanonicalKey()
	clist := canonStones(r, b, sym)
	if !bytes.Equal(encodeList(clist), p.stones) {
		sum.bad(false, fmt.Sprintf("position %d: its stones are not stored in canonical form", p.id))
		return 0, nil
	}
	n, err := w.findOrAdd(ctx, prepared{key: key, sym: sym, list: clist, toMove: b.ToMove(), winner: b.Winner()})
	if err != nil {
		return 0, err
	}
	autoBase := int64(-1) // the book's next auto-pilot rank at n (-1: not read yet)
	for _, e := range p.edges {
		m, err := unpackMove(e[0])
		if err != nil {
			sum.bad(true, fmt.Sprintf("position %d: stored move %d: %v", p.id, e[0], err))
			continue
		}
		pr, err := prepare(r, b, sym, clist, m, true, cells)
		if err != nil {
			sum.bad(true, fmt.Sprintf("position %d: move %s: %v", p.id, game.MoveName(r, m), err))
			continue
		}
		edges := w.edges
		_, err = w.apply(ctx, n.id, pr)
		if uerr := b.Undo(); err == nil {
			err = uerr
		}
		if err != nil {
			var se sqlite3.Error
			if errors.As(err, &se) || errors.Is(err, ErrCollision) || ctx.Err() != nil {
				return n.id, err
			}
			sum.bad(true, fmt.Sprintf("position %d: move %s: %v", p.id, game.MoveName(r, m), err))
			continue
		}
		if rank, ok := p.auto[e[0]]; ok && w.edges > edges {
			if autoBase < 0 {
				var err error
				if autoBase, err = nextAutoRank(ctx, w.tx, n.id); err != nil {
					return n.id, err
				}
			}
			if err := markAutoMove(ctx, w.tx, n.id, pr.move, autoBase+rank, nil); err != nil {
				return n.id, err
			}
			sum.AutoMoves++
		}
	}
	if p.note == nil {
		return n.id, nil
	}
	var marks []Mark
	if p.note.marks != "" {
		if err := json.Unmarshal([]byte(p.note.marks), &marks); err != nil {
			marks = nil // unreadable marks are left behind; the text is kept
		}
	}
	marks = slices.DeleteFunc(marks, func(mk Mark) bool { return mk.Square < 0 || int(mk.Square) >= r.Squares() })
	changed, err := w.addNote(ctx, n.id, p.note.comment, p.note.label, marks)
	if changed {
		sum.Notes++
	}
	return n.id, err
}

// VerdictPositions lists at most limit positions after id after that have
// a verdict, in id order.
func (bk *Book) VerdictPositions(ctx context.Context, after PosID, limit int) ([]PosID, error) {
	return queryIDs(ctx, bk.r, "SELECT pos FROM verdict WHERE pos > ? ORDER BY pos LIMIT ?", int64(after), limit)
}

// StoredVerdict is position id's verdict as stored (nil: none), its
// proved status not masked (see Position): what a copy to another book
// stores, re-checked there.
func (bk *Book) StoredVerdict(ctx context.Context, id PosID) (*c6book.Verdict, error) {
	return loadVerdict(ctx, bk.r, id)
}

// SameVerdict reports whether position id holds, byte for byte, the
// verdict and certificate that other's position oid holds; a position
// without a verdict holds no other's.
func (bk *Book) SameVerdict(ctx context.Context, id PosID, other *Book, oid PosID) (bool, error) {
	var sdata, ddata string
	var scert, dcert []byte
	if err := other.r.QueryRowContext(ctx, "SELECT data, cert FROM verdict WHERE pos = ?", int64(oid)).Scan(&sdata, &scert); err != nil {
		return false, err
	}
	switch err := bk.r.QueryRowContext(ctx, "SELECT data, cert FROM verdict WHERE pos = ?", int64(id)).Scan(&ddata, &dcert); {
	case errors.Is(err, sql.ErrNoRows):
		return false, nil
	case err != nil:
		return false, err
	}
	return ddata == sdata && bytes.Equal(dcert, scert), nil
}

// ExpertFlag is an expert's disproof flag (Hold false) or hold on a
// position for an attacker.
type ExpertFlag struct {
	Pos      PosID
	Attacker game.Color
	Hold     bool
}

// ExpertFlags lists the book's disproof flags, then its holds, by
// position.
func (bk *Book) ExpertFlags(ctx context.Context) ([]ExpertFlag, error) {
	var flags []ExpertFlag
	for _, q := range []struct {
		sql  string
		hold bool
	}{{"SELECT pos, attacker FROM status WHERE expert <> 0 ORDER BY pos, attacker", false}, {"SELECT pos, attacker FROM hold ORDER BY pos, attacker", true}} {
		rows, err := bk.r.QueryContext(ctx, q.sql)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var f ExpertFlag
			var a int
			if err := rows.Scan(&f.Pos, &a); err != nil {
				rows.Close()
				return nil, err
			}
			f.Attacker, f.Hold = game.Color(a), q.hold
			flags = append(flags, f)
		}
		if err := rows.Close(); err != nil {
			return nil, err
		}
	}
	return flags, nil
}

// SourceGames are the ids of a book's games of one source that hold their
// turns, in the order a copy stores them.
type SourceGames struct {
	Source string
	IDs    []string
}

// GamesToCopy lists the book's games that hold their turns by source
// (through not 0: the games through that position), and counts those
// without their turns (an old book's), which cannot be copied.
func (bk *Book) GamesToCopy(ctx context.Context, through PosID) (games []SourceGames, noTurns int, err error) {
	where, args := "", []any{}
	if through != 0 {
		where, args = " AND g.id IN (SELECT game FROM game_pos WHERE pos = ?)", []any{int64(through)}
	}
	if err := bk.r.QueryRowContext(ctx, "SELECT count(*) FROM game g WHERE g.turns IS NULL"+where, args...).Scan(&noTurns); err != nil {
		return nil, 0, err
	}
	sources, err := queryStrings(ctx, bk.r, "SELECT DISTINCT g.source FROM game g WHERE g.turns IS NOT NULL"+where+" ORDER BY g.source", args...)
	if err != nil {
		return nil, 0, err
	}
	for _, source := range sources {
		ids, err := queryStrings(ctx, bk.r, "SELECT g.ext_id FROM game g WHERE g.turns IS NOT NULL AND g.source = ?"+where+
			" ORDER BY length(g.ext_id), g.ext_id", append([]any{source}, args...)...)
		if err != nil {
			return nil, 0, err
		}
		games = append(games, SourceGames{Source: source, IDs: ids})
	}
	return games, noTurns, nil
}

// GameTurns is the stored game (source, id)'s turns in LittleGolem's
// notation, each turn's stones in the record's order (what StoreGames
// takes).
func (bk *Book) GameTurns(ctx context.Context, source, id string) ([]string, error) {
	var data []byte
	if err := bk.r.QueryRowContext(ctx, "SELECT turns FROM game WHERE source = ? AND ext_id = ?", source, id).Scan(&data); err != nil {
		return nil, fmt.Errorf("reading game %s %s: %w", source, id, err)
	}
	turns, err := decodeWritten(data)
	if err != nil {
		return nil, fmt.Errorf("game %s %s: %w", source, id, err)
	}
	out := make([]string, len(turns))
	for j, sq := range turns {
		out[j] = writtenName(bk.rules, sq)
	}
	return out, nil
}
