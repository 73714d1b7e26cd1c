package bookmerge

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"c6book"
	"c6book/engine/game"
	"c6book/internal/idset"
	"c6book/internal/latest"
	"c6book/proofbook"
)

// Books that travel: Merge adds another book to this one, Split writes a
// position's subtree to a new book. Both copy through one path (copyFrom):
// positions and moves (each move replayed on its position's board, so a
// move the source stores wrongly is not copied), notes (added without
// losing text, as the SGF import adds them), games (through the games
// store: a game is stored once per source and id), verdicts (through
// StoreVerdict, which re-checks every certificate with proofcheck: a proof
// that does not check is refused and listed), then the expert's disproof
// flags and holds. A move the auto-pilot proposed (autopilot_move) stays
// the auto-pilot's when it is new to the receiving book, after the book's
// own in its rank order; a move the book had keeps what it was (made by
// hand, or the book's own auto-pilot's). Statuses are never copied: the
// receiving book derives them from what it stored, as it does for its own
// verdicts.

// Merge adds the book at path from to bk: its positions and moves, notes,
// games, verdicts and the expert's disproof flags and holds. The two books
// must have the same rules (else nothing changes). Every verdict's
// certificate is re-checked by proofcheck on the way in (StoreVerdict's
// check): one that does not check is not stored, and the summary lists it
// with why. Conflicts keep bk's text and add the other's; a verdict of bk
// is kept unless the other book's proves more (proved against open, a
// certificate against none). The source is read, never written. The merge
// commits in batches, each consistent (its statuses propagated), so a
// merge cancelled or stopped midway leaves bk a sound book holding part of
// the other; merging again completes it. progress (may be nil) receives
// the latest report on a goroutine of its own and never holds up the
// merge.
func Merge(ctx context.Context, bk *proofbook.Book, from string, progress func(Progress)) (_ Summary, err error) {
	box := newBox(progress)
	defer func() { box.end(Progress{Phase: box.phase, Err: err, Final: true}) }()
	if err := ctx.Err(); err != nil {
		return Summary{}, err
	}
	if ro := bk.ReadOnly(); ro != "" {
		return Summary{}, fmt.Errorf("%w: %s", proofbook.ErrReadOnly, ro)
	}
	abs, err := filepath.Abs(from)
	if err != nil {
		return Summary{}, err
	}
	if same(abs, bk.Path()) {
		return Summary{}, fmt.Errorf("%s is this book", from)
	}
	src, err := proofbook.OpenWith(ctx, abs, proofbook.OpenOptions{ReadOnly: true})
	if err != nil {
		return Summary{}, err
	}
	defer src.Close()
	if src.Rules() != bk.Rules() {
		return Summary{}, fmt.Errorf("%s is a book for %s, this book is for %s; nothing was merged", from, src.Rules(), bk.Rules())
	}
	return copyFrom(ctx, bk, src, &copySel{all: true}, box)
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

// Split writes a new book at to (which must not exist) with bk's position
// id's subtree: the line from the empty board to it, and every move and
// position below it with their notes, verdicts (their certificates
// checked again as Merge does), the expert's flags, and the games whose
// line passes through it. The book derives its statuses from the verdicts,
// so the position's proofs travel with it. On an error the new file is
// removed.
func Split(ctx context.Context, bk *proofbook.Book, id proofbook.PosID, to string, progress func(Progress)) (_ Summary, err error) {
	box := newBox(progress)
	defer func() { box.end(Progress{Phase: box.phase, Err: err, Final: true}) }()
	sel, err := subtree(ctx, bk, id)
	if err != nil {
		return Summary{}, err
	}
	dst, err := proofbook.Create(ctx, to, bk.Rules())
	if err != nil {
		return Summary{}, err
	}
	defer func() {
		cerr := dst.Close()
		if err == nil && cerr != nil {
			err = cerr
		}
		if err != nil {
			for _, ext := range []string{"", "-wal", "-shm", "-journal"} {
				os.Remove(dst.Path() + ext)
			}
		}
	}()
	return copyFrom(ctx, dst, bk, sel, box)
}

// subtree selects what Split copies of position id: the first stored path
// to it and its subtree.
func subtree(ctx context.Context, bk *proofbook.Book, id proofbook.PosID) (*copySel, error) {
	if _, err := bk.Board(ctx, id); err != nil {
		return nil, err
	}
	lines, err := bk.PathsFromRoot(ctx, id, 1)
	if err != nil {
		return nil, err
	}
	if len(lines) == 0 {
		return nil, fmt.Errorf("position %d: no path from the root", id)
	}
	sel := &copySel{through: id, path: map[proofbook.PosID]proofbook.PosID{}}
	line := lines[0]
	for i := 0; i+1 < len(line.IDs); i++ {
		sel.path[line.IDs[i]] = line.IDs[i+1]
	}
	// The subtree, breadth first (a bit per position of the book).
	queue := []proofbook.PosID{id}
	sel.sub.Add(int64(id))
	for len(queue) > 0 {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		kids, err := bk.Edges(ctx, queue[0], game.Empty)
		if err != nil {
			return nil, err
		}
		queue = queue[1:]
		for _, k := range kids {
			if !sel.sub.Has(int64(k.Child)) {
				sel.sub.Add(int64(k.Child))
				sel.ids = append(sel.ids, k.Child)
				queue = append(queue, k.Child)
			}
		}
	}
	sel.ids = append(sel.ids, id)
	for p := range sel.path {
		if !sel.sub.Has(int64(p)) {
			sel.ids = append(sel.ids, p)
		}
	}
	slices.Sort(sel.ids)
	return sel, nil
}

// copySel says what copyFrom copies: everything (all), or a split's
// selection: the subtree (sub; ids lists it with the path, sorted), the
// path's moves (path: position -> the next one), the games through a
// position.
type copySel struct {
	all     bool
	sub     idset.Set
	ids     []proofbook.PosID
	path    map[proofbook.PosID]proofbook.PosID
	through proofbook.PosID
}

func (s *copySel) edge(parent, child proofbook.PosID) bool {
	if s.all || s.sub.Has(int64(parent)) {
		return true
	}
	next, ok := s.path[parent]
	return ok && next == child
}

// proofs: the verdicts and flags of the position are copied (a path
// position's are not: its other moves stay behind).
func (s *copySel) proofs(id proofbook.PosID) bool { return s.all || s.sub.Has(int64(id)) }

// copyBatch is the most source positions read at once.
const copyBatch = 500

// box delivers a merge's progress reports (nil: none) and keeps the phase
// for the final one.
type box struct {
	*latest.Box[Progress]
	phase Phase
}

func newBox(progress func(Progress)) *box {
	if progress == nil {
		return &box{}
	}
	return &box{Box: &latest.Box[Progress]{Deliver: progress, Gap: 100 * time.Millisecond}}
}

// end delivers the final report and waits until it has been delivered.
func (b *box) end(p Progress) {
	b.Put(p)
	b.Close(context.Background())
}

// copyFrom copies what sel selects of src into bk (see Merge).
func copyFrom(ctx context.Context, bk, src *proofbook.Book, sel *copySel, box *box) (sum Summary, err error) {
	report := func(phase Phase, done, total int) {
		box.phase = phase
		box.Put(Progress{Phase: phase, Done: done, Total: total})
	}
	if err := copyPositions(ctx, bk, src, sel, &sum, report); err != nil {
		return sum, err
	}
	if err := copyGames(ctx, bk, src, sel, &sum, report); err != nil {
		return sum, err
	}
	if err := copyVerdicts(ctx, bk, src, sel, &sum, report); err != nil {
		return sum, err
	}
	if err := copyFlags(ctx, bk, src, sel, &sum, report); err != nil {
		return sum, err
	}
	return sum, nil
}

func copyPositions(ctx context.Context, bk, src *proofbook.Book, sel *copySel, sum *Summary, report func(Phase, int, int)) error {
	total := len(sel.ids)
	if sel.all {
		st, err := src.Stats(ctx)
		if err != nil {
			return err
		}
		total = int(st.Positions)
	}
	report(PhasePositions, 0, total)
	done := 0
	var after proofbook.PosID // the last source id read (all)
	next := 0                 // the next index of sel.ids
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		// Read a batch of the source, off the write lock.
		var ids []proofbook.PosID
		if !sel.all {
			end := min(next+copyBatch, len(sel.ids))
			ids, next = sel.ids[next:end], end
			if len(ids) == 0 {
				return nil
			}
		}
		page, last, err := src.ReadPositions(ctx, ids, after, copyBatch, sel.edge)
		if err != nil {
			return err
		}
		if page.Len() == 0 {
			return nil
		}
		after = last
		// One transaction per part of the page that fits the time bound.
		for page.Len() > 0 {
			n := page.Len()
			c, err := bk.CopyPositions(ctx, page)
			if err != nil {
				if ctx.Err() != nil {
					return err
				}
				return fmt.Errorf("merge stopped (what was committed before is kept): %w", err)
			}
			sum.add(c)
			sum.Transactions++
			done += n - page.Len()
			report(PhasePositions, done, total)
		}
	}
}

// add counts what a transaction of copyPositions stored.
func (s *Summary) add(c proofbook.CopyCounts) {
	s.Positions += c.Positions
	s.Moves += c.Moves
	s.Notes += c.Notes
	s.AutoMoves += c.AutoMoves
	s.BadMoves += c.BadMoves
	s.BadPositions += c.BadPositions
	if s.FirstBad == "" {
		s.FirstBad = c.FirstBad
	}
}

// copyGames merges the source's games (a split's: the games through its
// position) through the games store, one source name at a time.
func copyGames(ctx context.Context, bk, src *proofbook.Book, sel *copySel, sum *Summary, report func(Phase, int, int)) error {
	var through proofbook.PosID
	if !sel.all {
		through = sel.through
	}
	games, noTurns, err := src.GamesToCopy(ctx, through)
	if err != nil {
		return err
	}
	sum.GamesNoTurns = noTurns
	done := 0
	for _, g := range games {
		gs := &bookGames{ctx: ctx, src: src, source: g.Source, ids: g.IDs}
		base := done
		st, err := bk.StoreGames(ctx, gs, proofbook.ImportOptions{Source: g.Source, OnProgress: func(p proofbook.ImportProgress) {
			report(PhaseGames, base+p.Done, base+p.Total)
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
		done += len(g.IDs)
	}
	return nil
}

// bookGames is a proofbook.GameSource over one source name's games of a
// book.
type bookGames struct {
	ctx    context.Context
	src    *proofbook.Book
	source string
	ids    []string
}

func (g *bookGames) Len() int        { return len(g.ids) }
func (g *bookGames) ID(i int) string { return g.ids[i] }
func (g *bookGames) Turns(i int) ([]string, error) {
	return g.src.GameTurns(g.ctx, g.source, g.ids[i])
}

// locateIn finds the position of src's position id in bk (by its stones).
func locateIn(ctx context.Context, bk, src *proofbook.Book, id proofbook.PosID) (proofbook.PosID, error) {
	b, err := src.Board(ctx, id)
	if err != nil {
		return 0, err
	}
	to, _, err := bk.Locate(ctx, b)
	return to, err
}

// lineOf is the line from the empty board to src's position id in its
// stable display orientation (StableTurns: as its games were played), for
// a report ("" when no stored line reaches it: ID says which position).
func lineOf(ctx context.Context, src *proofbook.Book, id proofbook.PosID) ([]game.Move, bool) {
	turns, err := src.StableTurns(ctx, id)
	if err != nil {
		return nil, false
	}
	return turns, true
}

// copyVerdicts stores the source's verdicts through StoreVerdict (which
// checks every certificate), a page of ids at a time.
func copyVerdicts(ctx context.Context, bk, src *proofbook.Book, sel *copySel, sum *Summary, report func(Phase, int, int)) error {
	st, err := src.Stats(ctx)
	if err != nil {
		return err
	}
	total := int(st.Verdicts)
	report(PhaseVerdicts, 0, total)
	var after proofbook.PosID
	done := 0
	for {
		ids, err := src.VerdictPositions(ctx, after, 200)
		if err != nil {
			return err
		}
		if len(ids) == 0 {
			return nil
		}
		after = ids[len(ids)-1]
		for _, id := range ids {
			if err := ctx.Err(); err != nil {
				return err
			}
			done++
			if !sel.proofs(id) {
				continue
			}
			if err := copyVerdict(ctx, bk, src, id, sum); err != nil {
				return err
			}
			report(PhaseVerdicts, done, total)
		}
	}
}

func copyVerdict(ctx context.Context, bk, src *proofbook.Book, id proofbook.PosID, sum *Summary) error {
	v, err := src.StoredVerdict(ctx, id)
	refuse := func(a game.Color, why Refusal, err error) {
		sum.RefusedCount++
		if len(sum.Refused) < MaxRefusedListed {
			turns, ok := lineOf(ctx, src, id)
			sum.Refused = append(sum.Refused, RefusedVerdict{Rules: src.Rules(), Pos: id, Turns: turns, HasLine: ok, Attacker: a, Why: why, Err: err})
		}
	}
	if err != nil {
		refuse(game.Empty, RefusedUnreadable, err) // an unreadable verdict or certificate
		return nil
	}
	if v == nil {
		return nil
	}
	to, err := locateIn(ctx, bk, src, id)
	if errors.Is(err, proofbook.ErrNotFound) {
		refuse(v.Attacker, RefusedNoPosition, nil)
		return nil
	}
	if err != nil {
		return err
	}
	sameV, err := bk.SameVerdict(ctx, to, src, id)
	if err != nil {
		return err
	}
	if sameV {
		sum.VerdictsAlready++
		return nil
	}
	mine, err := bk.StoredVerdict(ctx, to)
	if err != nil {
		return err
	}
	if mine != nil && mine.Attacker == v.Attacker && !provesMore(v, mine) {
		sum.VerdictsKept++
		return nil
	}
	if _, err := bk.StoreVerdict(ctx, to, *v); err != nil {
		if ctx.Err() != nil || proofbook.IsStorageError(err) {
			return err
		}
		why := RefusedOther
		var ce *c6book.CertError
		if errors.As(err, &ce) {
			why = RefusedCertificate
		}
		refuse(v.Attacker, why, err)
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
func copyFlags(ctx context.Context, bk, src *proofbook.Book, sel *copySel, sum *Summary, report func(Phase, int, int)) error {
	all, err := src.ExpertFlags(ctx)
	if err != nil {
		return err
	}
	flags := slices.DeleteFunc(all, func(f proofbook.ExpertFlag) bool { return !sel.proofs(f.Pos) })
	report(PhaseFlags, 0, len(flags))
	for i, f := range flags {
		to, err := locateIn(ctx, bk, src, f.Pos)
		if errors.Is(err, proofbook.ErrNotFound) {
			continue
		}
		if err != nil {
			return err
		}
		if f.Hold {
			held, err := bk.Held(ctx, to, f.Attacker)
			if err != nil {
				return err
			}
			if !held {
				if err := bk.SetHold(ctx, to, f.Attacker, true); err != nil {
					return err
				}
				sum.Holds++
			}
		} else {
			p, err := bk.Position(ctx, to)
			if err != nil {
				return err
			}
			if !p.Proofs[f.Attacker-1].Expert {
				if err := bk.SetDisproved(ctx, to, f.Attacker, true); err != nil {
					return err
				}
				sum.Disproofs++
			}
		}
		report(PhaseFlags, i+1, len(flags))
	}
	return nil
}
