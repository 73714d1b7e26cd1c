package proofbook

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"c6book"
	"c6book/engine/game"
	"c6book/internal/latest"

	"github.com/mattn/go-sqlite3"
)

// Books that travel: Merge adds another book to this one, Split writes a
// position's subtree to a new book. Both copy through one path (copyFrom):
// positions and moves (each move replayed on its position's board, so a
// move the source stores wrongly is not copied), notes (added without
// losing text, as the SGF import adds them: addNote), games (through the
// games import: a game is stored once per source and id), verdicts
// (through StoreVerdict, which re-checks every certificate with proofcheck:
// a proof that does not check is refused and listed), then the expert's
// disproof flags and holds. A move the auto-pilot proposed (autopilot_move)
// stays the auto-pilot's when it is new to the receiving book, after the
// book's own in its rank order; a move the book had keeps what it was
// (made by hand, or the book's own auto-pilot's). Statuses are never
// copied: the receiving book derives them from what it stored, as it does
// for its own verdicts.

// MergePhase is a step of a merge or split, in order.
type MergePhase string

// The steps of a merge or split.
const (
	MergePositions MergePhase = "positions" // positions, moves and notes
	MergeGames     MergePhase = "games"     // the games through them
	MergeVerdicts  MergePhase = "verdicts"  // verdicts, each certificate re-checked
	MergeFlags     MergePhase = "flags"     // the expert's disproof flags and holds
)

// MergeProgress is how far a merge or split is: the phase and how much of
// it is done. The last report has Final set (Err says how it ended when it
// did not finish).
type MergeProgress struct {
	Phase MergePhase
	Done  int
	Total int
	Final bool
	Err   error
}

// RefusedVerdict is a verdict of the source book that was not stored:
// where (the line from the empty board), for whom, and why.
type RefusedVerdict struct {
	Line     string
	Attacker game.Color
	Reason   string
	// Err is why, as the store said it (a *c6book.CertError when the
	// certificate does not check); nil when the reason is Reason alone.
	Err error
}

// MaxRefusedListed bounds MergeSummary.Refused (the count is exact).
const MaxRefusedListed = 1000

// MergeSummary says what a merge (or a split) added to the receiving book.
type MergeSummary struct {
	Positions int // new positions (moves and games)
	Moves     int // new moves (moves and games)
	Notes     int // notes added or extended
	// Games stored, games the book had already, and games the source
	// holds without their turns (an old book's), which cannot be merged.
	Games        int
	GamesAlready int
	GamesSkipped int
	GamesNoTurns int
	// Verdicts stored (their certificates checked), of which Uncertified
	// carry no certificate (stored, proving nothing, as the source held
	// them); VerdictsAlready: the same verdict was there; VerdictsKept:
	// the book's own verdict was kept (it proves as much or more).
	Verdicts        int
	Uncertified     int
	VerdictsAlready int
	VerdictsKept    int
	// RefusedCount verdicts were not stored (their certificate does not
	// check, ...); Refused lists the first MaxRefusedListed of them.
	RefusedCount int
	Refused      []RefusedVerdict
	// Moves and positions of the source that were not copied (a move
	// illegal on its position, stones not in canonical form): their count
	// and the first reason.
	BadMoves     int
	BadPositions int
	FirstBad     string
	Disproofs    int // expert disproof flags set
	Holds        int // expert holds set
	AutoMoves    int // new moves marked as the auto-pilot's, as in the source
	Transactions int
}

// Merge adds the book at path from to bk: its positions and moves, notes,
// games, verdicts and the expert's disproof flags and holds. The two books
// must have the same rules (else nothing changes). Every verdict's
// certificate is re-checked by proofcheck on the way in (StoreVerdict's
// check): one that does not check is not stored, and the summary lists it.
// Conflicts keep bk's text and add the other's (see addNote); a verdict of
// bk is kept unless the other book's proves more (proved against open, a
// certificate against none). The source is read, never written. The merge
// commits in batches, each consistent (its statuses propagated), so a
// merge cancelled or stopped midway leaves bk a sound book holding part of
// the other; merging again completes it. progress (may be nil) receives
// the latest report on a goroutine of its own and never holds up the
// merge.
func (bk *Book) Merge(ctx context.Context, from string, progress func(MergeProgress)) (_ MergeSummary, err error) {
	box := newMergeBox(progress)
	defer func() { box.end(MergeProgress{Phase: box.phase, Err: err, Final: true}) }()
	if err := ctx.Err(); err != nil {
		return MergeSummary{}, err
	}
	if ro := bk.ReadOnly(); ro != "" {
		return MergeSummary{}, fmt.Errorf("%w: %s", ErrReadOnly, ro)
	}
	abs, err := filepath.Abs(from)
	if err != nil {
		return MergeSummary{}, err
	}
	if same(abs, bk.path) {
		return MergeSummary{}, fmt.Errorf("%s is this book", from)
	}
	src, err := OpenWith(ctx, abs, OpenOptions{ReadOnly: true})
	if err != nil {
		return MergeSummary{}, err
	}
	defer src.Close()
	if src.rules != bk.rules {
		return MergeSummary{}, fmt.Errorf("%s is a book for %s, this book is for %s; nothing was merged", from, src.rules, bk.rules)
	}
	return bk.copyFrom(ctx, src, &copySel{all: true}, box)
}

// same reports whether two paths name the same file.
func same(a, b string) bool {
	if a == b {
		return true
	}
	fa, err1 := os.Stat(a)
	fb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(fa, fb)
}

// Split writes a new book at to (which must not exist) with position id's
// subtree: the line from the empty board to it, and every move and
// position below it with their notes, verdicts (their certificates
// checked again as Merge does), the expert's flags, and the games whose
// line passes through it. The book derives its statuses from the verdicts,
// so the position's proofs travel with it. On an error the new file is
// removed.
func (bk *Book) Split(ctx context.Context, id PosID, to string, progress func(MergeProgress)) (_ MergeSummary, err error) {
	box := newMergeBox(progress)
	defer func() { box.end(MergeProgress{Phase: box.phase, Err: err, Final: true}) }()
	if _, err := readInfo(ctx, bk.r, id); err != nil {
		return MergeSummary{}, err
	}
	lines, err := bk.PathsFromRoot(ctx, id, 1)
	if err != nil {
		return MergeSummary{}, err
	}
	if len(lines) == 0 {
		return MergeSummary{}, fmt.Errorf("position %d: no path from the root", id)
	}
	sel := &copySel{through: id, path: map[PosID]PosID{}}
	line := lines[0]
	for i := 0; i+1 < len(line.IDs); i++ {
		sel.path[line.IDs[i]] = line.IDs[i+1]
	}
	// The subtree, breadth first (a bit per position of the book).
	queue := []PosID{id}
	sel.sub.add(id)
	for len(queue) > 0 {
		if err := ctx.Err(); err != nil {
			return MergeSummary{}, err
		}
		kids, err := bk.childIDs(ctx, queue[0])
		if err != nil {
			return MergeSummary{}, err
		}
		queue = queue[1:]
		for _, k := range kids {
			if !sel.sub.has(k) {
				sel.sub.add(k)
				sel.ids = append(sel.ids, k)
				queue = append(queue, k)
			}
		}
	}
	sel.ids = append(sel.ids, id)
	for p := range sel.path {
		if !sel.sub.has(p) {
			sel.ids = append(sel.ids, p)
		}
	}
	slices.Sort(sel.ids)
	dst, err := Create(ctx, to, bk.rules)
	if err != nil {
		return MergeSummary{}, err
	}
	defer func() {
		cerr := dst.Close()
		if err == nil && cerr != nil {
			err = cerr
		}
		if err != nil {
			for _, ext := range []string{"", "-wal", "-shm", "-journal"} {
				os.Remove(dst.path + ext)
			}
		}
	}()
	return dst.copyFrom(ctx, bk, sel, box)
}

// copySel says what copyFrom copies: everything (all), or a split's
// selection: the subtree (sub; ids lists it with the path, sorted), the
// path's moves (path: position -> the next one), the games through a
// position.
type copySel struct {
	all     bool
	sub     idSet
	ids     []PosID
	path    map[PosID]PosID
	through PosID
}

func (s *copySel) position(id PosID) bool {
	if s.all || s.sub.has(id) {
		return true
	}
	_, ok := s.path[id]
	return ok
}

func (s *copySel) edge(parent, child PosID) bool {
	if s.all || s.sub.has(parent) {
		return true
	}
	next, ok := s.path[parent]
	return ok && next == child
}

// proofs: the verdicts and flags of the position are copied (a path
// position's are not: its other moves stay behind).
func (s *copySel) proofs(id PosID) bool { return s.all || s.sub.has(id) }

// srcPos is one source position read before the write transaction.
type srcPos struct {
	id     PosID
	stones []byte
	toMove game.Color
	edges  [][2]int64      // packed move, child
	auto   map[int64]int64 // packed move → its rank: the auto-pilot's moves
	note   *srcNote
}

type srcNote struct {
	comment, label, marks string
}

// copyBatch is the most source positions per write transaction.
const copyBatch = 500

// mergeBox delivers a merge's progress reports (nil: none) and keeps the
// phase for the final one.
type mergeBox struct {
	*latest.Box[MergeProgress]
	phase MergePhase
}

func newMergeBox(progress func(MergeProgress)) *mergeBox {
	if progress == nil {
		return &mergeBox{}
	}
	return &mergeBox{Box: &latest.Box[MergeProgress]{Deliver: progress, Gap: 100 * time.Millisecond}}
}

func (b *mergeBox) end(p MergeProgress) { endProgress(b.Box, p) }

// copyFrom copies what sel selects of src into bk (see Merge).
func (bk *Book) copyFrom(ctx context.Context, src *Book, sel *copySel, box *mergeBox) (sum MergeSummary, err error) {
	report := func(phase MergePhase, done, total int) {
		box.phase = phase
		box.Put(MergeProgress{Phase: phase, Done: done, Total: total})
	}
	if err := bk.copyPositions(ctx, src, sel, &sum, report); err != nil {
		return sum, err
	}
	if err := bk.copyGames(ctx, src, sel, &sum, report); err != nil {
		return sum, err
	}
	if err := bk.copyVerdicts(ctx, src, sel, &sum, report); err != nil {
		return sum, err
	}
	if err := bk.copyFlags(ctx, src, sel, &sum, report); err != nil {
		return sum, err
	}
	return sum, nil
}

// bad records a source move or position that is not copied.
func (sum *MergeSummary) bad(move bool, why string) {
	if move {
		sum.BadMoves++
	} else {
		sum.BadPositions++
	}
	if sum.FirstBad == "" {
		sum.FirstBad = oneLineText(why)
	}
}

func (bk *Book) copyPositions(ctx context.Context, src *Book, sel *copySel, sum *MergeSummary, report func(MergePhase, int, int)) error {
	total := len(sel.ids)
	if sel.all {
		if err := src.r.QueryRowContext(ctx, "SELECT count(*) FROM position").Scan(&total); err != nil {
			return err
		}
	}
	report(MergePositions, 0, total)
	done := 0
	var after PosID // the last source id read (all)
	next := 0       // the next index of sel.ids
	cells := make([]game.Color, bk.rules.Squares())
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		// Read a batch of the source, off the write lock.
		var page []srcPos
		if sel.all {
			rows, err := src.r.QueryContext(ctx, "SELECT id, stones, to_move FROM position WHERE id > ? ORDER BY id LIMIT ?", int64(after), copyBatch)
			if err != nil {
				return err
			}
			for rows.Next() {
				var p srcPos
				var tm int
				if err := rows.Scan(&p.id, &p.stones, &tm); err != nil {
					rows.Close()
					return err
				}
				p.toMove = game.Color(tm)
				page = append(page, p)
			}
			if err := rows.Close(); err != nil {
				return err
			}
			if len(page) > 0 {
				after = page[len(page)-1].id
			}
		} else {
			for ; next < len(sel.ids) && len(page) < copyBatch; next++ {
				p := srcPos{id: sel.ids[next]}
				var tm int
				if err := src.r.QueryRowContext(ctx, "SELECT stones, to_move FROM position WHERE id = ?", int64(p.id)).Scan(&p.stones, &tm); err != nil {
					return err
				}
				p.toMove = game.Color(tm)
				page = append(page, p)
			}
		}
		if len(page) == 0 {
			return nil
		}
		if err := readPage(ctx, src, sel, page); err != nil {
			return err
		}
		// One transaction per batch, and none holds the write lock much
		// longer than the games import's (DefaultMaxTxTime): the rest of
		// the page goes in the next.
		for len(page) > 0 {
			var bst MergeSummary
			var txStart time.Time
			used := 0
			err := bk.writeRetry(ctx, func(tx *sql.Tx) error {
				txStart = time.Now()
				bst, used = MergeSummary{}, 0
				w, err := bk.newWtx(ctx, tx)
				if err != nil {
					return err
				}
				for used < len(page) && (used == 0 || time.Since(txStart) < DefaultMaxTxTime) {
					if err := bk.copyPosition(ctx, w, page[used], &bst, cells); err != nil {
						return err
					}
					used++
				}
				bst.Positions, bst.Moves = w.added, w.edges
				return w.finish(ctx)
			})
			if err != nil {
				if ctx.Err() != nil {
					return err
				}
				return fmt.Errorf("merge stopped (what was committed before is kept): %w", err)
			}
			sum.Positions += bst.Positions
			sum.Moves += bst.Moves
			sum.Notes += bst.Notes
			sum.AutoMoves += bst.AutoMoves
			sum.BadMoves += bst.BadMoves
			sum.BadPositions += bst.BadPositions
			if sum.FirstBad == "" {
				sum.FirstBad = bst.FirstBad
			}
			sum.Transactions++
			done += used
			page = page[used:]
			report(MergePositions, done, total)
			// Leave the lock free for a moment (as the games import does).
			if err := pause(ctx, time.Since(txStart)/10); err != nil {
				return err
			}
		}
	}
}

// readPage reads the selected moves and the notes of a page of source
// positions (sorted by id): for a whole book, two range queries; for a
// split (its ids may lie far apart), per position.
func readPage(ctx context.Context, src *Book, sel *copySel, page []srcPos) error {
	at := make(map[PosID]int, len(page))
	for i, p := range page {
		at[p.id] = i
	}
	edgeQ, noteQ := "SELECT parent, move, child FROM edge WHERE parent BETWEEN ? AND ? ORDER BY parent, move",
		"SELECT pos, comment, label, marks FROM note WHERE pos BETWEEN ? AND ?"
	autoQ := "SELECT parent, move, rank FROM autopilot_move WHERE parent BETWEEN ? AND ?"
	type span struct{ lo, hi PosID }
	spans := []span{{page[0].id, page[len(page)-1].id}}
	if !sel.all {
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
			if i, ok := at[PosID(parent)]; ok && sel.edge(PosID(parent), PosID(e[1])) {
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
	}
	return nil
}

// copyPosition stores one source position in the write transaction: the
// position, its selected moves (each replayed on its board; a new one the
// auto-pilot's when the source's is) and its note.
func (bk *Book) copyPosition(ctx context.Context, w *wtx, p srcPos, sum *MergeSummary, cells []game.Color) error {
	r := bk.rules
	list, err := decodeStones(r, p.stones)
	if err != nil {
		sum.bad(false, fmt.Sprintf("position %d: %v", p.id, err))
		return nil
	}
	b, err := bk.setUpBoard(list, p.toMove)
	if err != nil {
		sum.bad(false, fmt.Sprintf("position %d: %v", p.id, err))
		return nil
	}
	key, sym := b.CanonicalKey()
	clist := canonStones(r, b, sym)
	if !bytes.Equal(encodeList(clist), p.stones) {
		sum.bad(false, fmt.Sprintf("position %d: its stones are not stored in canonical form", p.id))
		return nil
	}
	n, err := w.findOrAdd(ctx, prepared{key: key, sym: sym, list: clist, toMove: b.ToMove(), winner: b.Winner()})
	if err != nil {
		return err
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
				return err
			}
			sum.bad(true, fmt.Sprintf("position %d: move %s: %v", p.id, game.MoveName(r, m), err))
			continue
		}
		if rank, ok := p.auto[e[0]]; ok && w.edges > edges {
			if autoBase < 0 {
				var err error
				if autoBase, err = nextAutoRank(ctx, w.tx, n.id); err != nil {
					return err
				}
			}
			if err := markAutoMove(ctx, w.tx, n.id, pr.move, autoBase+rank, nil); err != nil {
				return err
			}
			sum.AutoMoves++
		}
	}
	if p.note == nil {
		return nil
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
	return err
}

// copyGames merges the source's games (a split's: the games through its
// position) through the games import, one source name at a time.
func (bk *Book) copyGames(ctx context.Context, src *Book, sel *copySel, sum *MergeSummary, report func(MergePhase, int, int)) error {
	where, args := "", []any{}
	if !sel.all {
		where, args = " AND g.id IN (SELECT game FROM game_pos WHERE pos = ?)", []any{int64(sel.through)}
	}
	if err := src.r.QueryRowContext(ctx, "SELECT count(*) FROM game g WHERE g.turns IS NULL"+where, args...).Scan(&sum.GamesNoTurns); err != nil {
		return err
	}
	sources, err := queryStrings(ctx, src.r, "SELECT DISTINCT g.source FROM game g WHERE g.turns IS NOT NULL"+where+" ORDER BY g.source", args...)
	if err != nil {
		return err
	}
	done := 0
	for _, source := range sources {
		ids, err := queryStrings(ctx, src.r, "SELECT g.ext_id FROM game g WHERE g.turns IS NOT NULL AND g.source = ?"+where+
			" ORDER BY length(g.ext_id), g.ext_id", append([]any{source}, args...)...)
		if err != nil {
			return err
		}
		gs := &bookGames{ctx: ctx, src: src, source: source, ids: ids}
		base := done
		st, err := bk.importFrom(ctx, gs, ImportOptions{Source: source, OnProgress: func(p ImportProgress) {
			report(MergeGames, base+p.Done, base+p.Total)
		}})
		sum.Games += st.Games
		sum.GamesAlready += st.Already
		sum.GamesSkipped += len(st.Skipped)
		sum.Positions += st.Positions
		sum.Moves += st.Edges
		sum.Transactions += st.Transactions
		if err != nil {
			return err
		}
		done += len(ids)
	}
	return nil
}

// bookGames is a gameSource over one source name's games of a book.
type bookGames struct {
	ctx    context.Context
	src    *Book
	source string
	ids    []string
}

func (g *bookGames) Len() int        { return len(g.ids) }
func (g *bookGames) ID(i int) string { return g.ids[i] }
func (g *bookGames) Turns(i int) ([]string, error) {
	var data []byte
	if err := g.src.r.QueryRowContext(g.ctx, "SELECT turns FROM game WHERE source = ? AND ext_id = ?", g.source, g.ids[i]).Scan(&data); err != nil {
		return nil, fmt.Errorf("reading game %s %s: %w", g.source, g.ids[i], err)
	}
	turns, err := decodeWritten(data)
	if err != nil {
		return nil, fmt.Errorf("game %s %s: %w", g.source, g.ids[i], err)
	}
	out := make([]string, len(turns))
	for j, sq := range turns {
		out[j] = writtenName(g.src.rules, sq)
	}
	return out, nil
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

// locateIn finds the position of src's position id in bk (by its stones).
func (bk *Book) locateIn(ctx context.Context, src *Book, id PosID) (PosID, error) {
	list, tm, err := loadPos(ctx, src.r, src.rules, id)
	if err != nil {
		return 0, err
	}
	b, err := src.setUpBoard(list, tm)
	if err != nil {
		return 0, err
	}
	to, _, err := bk.Locate(ctx, b)
	return to, err
}

// lineText is the line from the empty board to src's position id in its
// stable display orientation (StableTurns: as its games were played), for
// a report ("position N" when no stored line reaches it).
func lineText(ctx context.Context, src *Book, id PosID) string {
	turns, err := src.StableTurns(ctx, id)
	if err != nil {
		return fmt.Sprintf("position %d", id)
	}
	if len(turns) == 0 {
		return "(empty board)"
	}
	return game.FormatTurns(src.rules, turns)
}

// copyVerdicts stores the source's verdicts through StoreVerdict (which
// checks every certificate), a page of ids at a time.
func (bk *Book) copyVerdicts(ctx context.Context, src *Book, sel *copySel, sum *MergeSummary, report func(MergePhase, int, int)) error {
	var total int
	if err := src.r.QueryRowContext(ctx, "SELECT count(*) FROM verdict").Scan(&total); err != nil {
		return err
	}
	report(MergeVerdicts, 0, total)
	var after int64
	done := 0
	for {
		ids, err := queryIDs(ctx, src.r, "SELECT pos FROM verdict WHERE pos > ? ORDER BY pos LIMIT 200", after)
		if err != nil {
			return err
		}
		if len(ids) == 0 {
			return nil
		}
		after = int64(ids[len(ids)-1])
		for _, id := range ids {
			if err := ctx.Err(); err != nil {
				return err
			}
			done++
			if !sel.proofs(id) {
				continue
			}
			if err := bk.copyVerdict(ctx, src, id, sum); err != nil {
				return err
			}
			report(MergeVerdicts, done, total)
		}
	}
}

func (bk *Book) copyVerdict(ctx context.Context, src *Book, id PosID, sum *MergeSummary) error {
	v, err := loadVerdict(ctx, src.r, id)
	refuse := func(a game.Color, why string, err error) {
		sum.RefusedCount++
		if len(sum.Refused) < MaxRefusedListed {
			sum.Refused = append(sum.Refused, RefusedVerdict{Line: lineText(ctx, src, id), Attacker: a, Reason: oneLineText(why), Err: err})
		}
	}
	if err != nil {
		refuse(game.Empty, err.Error(), err) // an unreadable verdict or certificate
		return nil
	}
	if v == nil {
		return nil
	}
	to, err := bk.locateIn(ctx, src, id)
	if errors.Is(err, ErrNotFound) {
		refuse(v.Attacker, "its position was not merged", nil)
		return nil
	}
	if err != nil {
		return err
	}
	var sdata, ddata string
	var scert, dcert []byte
	if err := src.r.QueryRowContext(ctx, "SELECT data, cert FROM verdict WHERE pos = ?", int64(id)).Scan(&sdata, &scert); err != nil {
		return err
	}
	switch err := bk.r.QueryRowContext(ctx, "SELECT data, cert FROM verdict WHERE pos = ?", int64(to)).Scan(&ddata, &dcert); {
	case err == nil:
		if ddata == sdata && bytes.Equal(dcert, scert) {
			sum.VerdictsAlready++
			return nil
		}
		mine, err := loadVerdict(ctx, bk.r, to)
		if err != nil {
			return err
		}
		if mine.Attacker == v.Attacker && !provesMore(v, mine) {
			sum.VerdictsKept++
			return nil
		}
	case !errors.Is(err, sql.ErrNoRows):
		return err
	}
	if _, err := bk.StoreVerdict(ctx, to, *v); err != nil {
		var se sqlite3.Error
		if ctx.Err() != nil || errors.As(err, &se) || errors.Is(err, ErrReadOnly) || errors.Is(err, ErrDamaged) {
			return err
		}
		refuse(v.Attacker, err.Error(), err)
		return nil
	}
	sum.Verdicts++
	if v.Cert == nil {
		sum.Uncertified++
	}
	return nil
}

// provesMore reports whether verdict v (to be checked on the way in)
// claims more than the stored one: a certificate against none, proved
// against open.
func provesMore(v, stored *c6book.Verdict) bool {
	if (v.Cert != nil) != (stored.Cert != nil) {
		return v.Cert != nil
	}
	return v.Status == c6book.StatusProved && stored.Status != c6book.StatusProved
}

// copyFlags carries the expert's disproof flags and holds.
func (bk *Book) copyFlags(ctx context.Context, src *Book, sel *copySel, sum *MergeSummary, report func(MergePhase, int, int)) error {
	type flag struct {
		pos  PosID
		a    game.Color
		hold bool
	}
	var flags []flag
	for _, q := range []struct {
		sql  string
		hold bool
	}{{"SELECT pos, attacker FROM status WHERE expert <> 0 ORDER BY pos, attacker", false}, {"SELECT pos, attacker FROM hold ORDER BY pos, attacker", true}} {
		rows, err := src.r.QueryContext(ctx, q.sql)
		if err != nil {
			return err
		}
		for rows.Next() {
			var f flag
			var a int
			if err := rows.Scan(&f.pos, &a); err != nil {
				rows.Close()
				return err
			}
			f.a, f.hold = game.Color(a), q.hold
			if sel.proofs(f.pos) {
				flags = append(flags, f)
			}
		}
		if err := rows.Close(); err != nil {
			return err
		}
	}
	report(MergeFlags, 0, len(flags))
	for i, f := range flags {
		to, err := bk.locateIn(ctx, src, f.pos)
		if errors.Is(err, ErrNotFound) {
			continue
		}
		if err != nil {
			return err
		}
		if f.hold {
			held, err := bk.Held(ctx, to, f.a)
			if err != nil {
				return err
			}
			if !held {
				if err := bk.SetHold(ctx, to, f.a, true); err != nil {
					return err
				}
				sum.Holds++
			}
		} else {
			pr, _, err := readProof(ctx, bk.r, bk.rules, to, f.a)
			if err != nil {
				return err
			}
			if !pr.Expert {
				if err := bk.SetDisproved(ctx, to, f.a, true); err != nil {
					return err
				}
				sum.Disproofs++
			}
		}
		report(MergeFlags, i+1, len(flags))
	}
	return nil
}

// Lines says what a merge or split added, in a few lines for a person (the
// CLI's output and the app's summary): the counts, then each refused
// verdict (line, attacker, reason), at most maxRefused of them (0: all
// listed).
func (s MergeSummary) Lines(maxRefused int) []string {
	out := []string{
		fmt.Sprintf("%s, %s, %s added or extended", count(s.Positions, "new position"), count(s.Moves, "new move"), count(s.Notes, "note")),
		fmt.Sprintf("%s added, %d already in the book", count(s.Games, "game"), s.GamesAlready),
		fmt.Sprintf("%s imported (certificates re-checked by proofcheck), %d already there, %d kept (the book's own proves as much)",
			count(s.Verdicts, "verdict"), s.VerdictsAlready, s.VerdictsKept),
	}
	if s.Uncertified > 0 {
		out = append(out, fmt.Sprintf("%d of the imported verdicts carry no certificate: stored, they prove nothing", s.Uncertified))
	}
	if s.GamesSkipped > 0 || s.GamesNoTurns > 0 {
		out = append(out, fmt.Sprintf("%s skipped (illegal moves), %d without their turns (an old book's) not merged", count(s.GamesSkipped, "game"), s.GamesNoTurns))
	}
	if s.Disproofs > 0 || s.Holds > 0 {
		out = append(out, fmt.Sprintf("%s and %s carried", count(s.Disproofs, "expert disproof"), count(s.Holds, "hold")))
	}
	if s.AutoMoves > 0 {
		out = append(out, fmt.Sprintf("%s marked as the auto-pilot's, as in the other book", count(s.AutoMoves, "new move")))
	}
	if s.BadMoves > 0 || s.BadPositions > 0 {
		out = append(out, fmt.Sprintf("%s and %s of the other book not copied (first: %s)", count(s.BadMoves, "move"), count(s.BadPositions, "position"), s.FirstBad))
	}
	if s.RefusedCount == 0 {
		out = append(out, "no verdict refused")
		return out
	}
	out = append(out, fmt.Sprintf("%s REFUSED (the proof does not check; not imported):", count(s.RefusedCount, "verdict")))
	for i, r := range s.Refused {
		if maxRefused > 0 && i >= maxRefused {
			out = append(out, fmt.Sprintf("  ... and %d more", s.RefusedCount-i))
			break
		}
		out = append(out, fmt.Sprintf("  %s (%s): %s", r.Line, r.Attacker, r.Reason))
	}
	if maxRefused <= 0 && s.RefusedCount > len(s.Refused) {
		out = append(out, fmt.Sprintf("  ... and %d more", s.RefusedCount-len(s.Refused)))
	}
	return out
}

// count is "1 verdict", "2 verdicts".
func count(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
