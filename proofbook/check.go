package proofbook

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"

	"c6book"
	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/proofcheck"
)

// CheckReport is the result of Check. The book is sound when Problems is
// empty.
type CheckReport struct {
	Positions int64
	Edges     int64
	Statuses  int64
	Proved    int64
	Proofs    int64 // proved (position, attacker) pairs re-checked from certificates
	Problems  []string
	// Outside: the proof rows had been changed outside the program since
	// the last check (their digest did not match) when the check began.
	// Recorded: the check found nothing wrong and recorded the digest of
	// the rows it checked, so that the book trusts its proofs again.
	Outside, Recorded bool
}

// OK reports whether the check found nothing wrong.
func (c CheckReport) OK() bool { return len(c.Problems) == 0 }

const maxProblems = 100

// CheckProgress is reported while checking the proofs.
type CheckProgress struct {
	Checked, Total int // proved (position, attacker) pairs
}

// Check verifies the book: SQLite's integrity_check and foreign_key_check,
// the game statistics (every position's counts are those of the games
// listed under it),
// every position's key and stone set (recomputed from the stones), every
// edge (the move is legal and leads to the stored child), every stored
// status and proof number re-derived from the stored children and verdicts,
// and then every proved position re-checked from the certificates alone by
// proofcheck (no solver calls, no code shared with the prover): the first
// broken link is reported as a line from the root.
func (bk *Book) Check(ctx context.Context) (CheckReport, error) {
	return bk.CheckWithProgress(ctx, nil)
}

// CheckWithProgress is Check with a progress callback for the proof pass
// (called from Check's goroutine; it should return quickly).
func (bk *Book) CheckWithProgress(ctx context.Context, progress func(CheckProgress)) (CheckReport, error) {
	var rep CheckReport
	problem := func(format string, args ...any) {
		if len(rep.Problems) < maxProblems {
			rep.Problems = append(rep.Problems, fmt.Sprintf(format, args...))
		}
	}
	stored0, rows0, err := bk.digests(ctx)
	if err != nil {
		return rep, err
	}
	rep.Outside = !stored0.equal(rows0)
	if err := bk.checkAll(ctx, &rep, problem, progress); err != nil || !rep.OK() {
		return rep, err
	}
	if bk.readOnly != "" {
		return rep, nil
	}
	// Record the digest of the rows checked. Writes of the program during
	// the check moved the stored digest and the rows' sum alike; anything
	// else (an outside change while checking) leaves it unrecorded.
	err = bk.write(ctx, func(tx *sql.Tx) error {
		stored1, err := storedDigest(ctx, tx)
		if err != nil {
			return err
		}
		rows1, err := rowsDigest(ctx, tx)
		if err != nil {
			return err
		}
		if !rows1.minus(rows0).equal(stored1.minus(stored0)) {
			problem("the proofs were changed outside the program during the check: run check again")
			return nil
		}
		if stored1.equal(rows1) {
			return nil
		}
		rep.Recorded = true
		return writeDigest(ctx, tx, rows1)
	})
	return rep, err
}

// digests reads the stored proof digest and the rows' in one snapshot.
func (bk *Book) digests(ctx context.Context) (stored, rows digest, err error) {
	tx, err := bk.r.BeginTx(ctx, nil)
	if err != nil {
		return stored, rows, err
	}
	defer tx.Rollback()
	if stored, err = storedDigest(ctx, tx); err != nil {
		return stored, rows, err
	}
	rows, err = rowsDigest(ctx, tx)
	return stored, rows, err
}

// checker is one run of the checks of CheckWithProgress: the phases
// (checkPhases) add to rep, through problem.
type checker struct {
	bk       *Book
	rep      *CheckReport
	problem  func(string, ...any)
	progress func(CheckProgress)
	// stored are the status rows (the statuses phase), whose proved
	// positions the proofs phase re-checks.
	stored map[statusKey]c6book.Proof
}

type statusKey struct {
	id PosID
	a  game.Color
}

// checkPhase is a named phase of CheckWithProgress. A gate phase that
// finds a problem ends the check (the later phases would read a damaged
// database).
type checkPhase struct {
	name string
	run  func(c *checker, ctx context.Context) error
	gate bool
}

// checkPhases are the phases of CheckWithProgress, in order.
func checkPhases() []checkPhase {
	return []checkPhase{
		{"sqlite integrity", (*checker).sqlite, true},
		{"game statistics", func(c *checker, ctx context.Context) error { return c.bk.checkGameStats(ctx, c.problem) }, false},
		{"positions", (*checker).positions, false},
		{"edges", (*checker).edges, false},
		{"statuses", (*checker).statuses, false},
		{"proofs", (*checker).proofs, false},
	}
}

// checkAll runs the checks of CheckWithProgress, adding to rep.
func (bk *Book) checkAll(ctx context.Context, rep *CheckReport, problem func(string, ...any), progress func(CheckProgress)) error {
	c := &checker{bk: bk, rep: rep, problem: problem, progress: progress}
	for _, ph := range checkPhases() {
		if err := ph.run(c, ctx); err != nil {
			return err
		}
		if ph.gate && !rep.OK() {
			return nil
		}
	}
	return nil
}

// sqlite runs SQLite's integrity_check and foreign_key_check.
func (c *checker) sqlite(ctx context.Context) error {
	bk, problem := c.bk, c.problem
	before, statErr := statID(bk.path)
	found := len(c.rep.Problems)
	rows, err := bk.r.QueryContext(ctx, "PRAGMA integrity_check")
	if err != nil {
		return err
	}
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			rows.Close()
			return err
		}
		if s != "ok" {
			problem("integrity_check: %s", s)
		}
	}
	if err := rows.Close(); err != nil {
		return err
	}
	if statErr == nil && len(c.rep.Problems) == found && bk.readOnly == "" {
		bk.gate.passed(bk.path, before)
	}
	rows, err = bk.r.QueryContext(ctx, "PRAGMA foreign_key_check")
	if err != nil {
		return err
	}
	for rows.Next() {
		var table, parent string
		var rowid, fkid any
		if err := rows.Scan(&table, &rowid, &parent, &fkid); err != nil {
			rows.Close()
			return err
		}
		problem("foreign key: %s row %v refers to a missing %s", table, rowid, parent)
	}
	if err := rows.Close(); err != nil {
		return err
	}
	return nil
}

// positions checks every position's key and stones.
func (c *checker) positions(ctx context.Context) error {
	bk, rep, problem, r := c.bk, c.rep, c.problem, c.bk.rules
	rows, err := bk.r.QueryContext(ctx, "SELECT id, key, stones, to_move, nstones, winner FROM position ORDER BY id")
	if err != nil {
		return err
	}
	seen := map[uint64]int64{}
	for rows.Next() {
		var id, key int64
		var st []byte
		var tm, ns, win int
		if err := rows.Scan(&id, &key, &st, &tm, &ns, &win); err != nil {
			rows.Close()
			return err
		}
		rep.Positions++
		list, err := decodeStones(r, st)
		if err != nil {
			problem("position %d: %v", id, err)
			continue
		}
		b := bk.board(list, game.Color(tm))
		k, sym := b.CanonicalKey()
		if k != uint64(key) || sym != 0 {
			problem("position %d: stored key %#x, its stones give %#x (symmetry %d)", id, uint64(key), k, sym)
		}
		if len(list) != ns || game.Color(win) != b.Winner() {
			problem("position %d: stored stone count or winner does not match its stones", id)
		}
		if other, dup := seen[uint64(key)]; dup {
			problem("positions %d and %d share key %#x", other, id, uint64(key))
		}
		seen[uint64(key)] = id
	}
	if err := rows.Close(); err != nil {
		return err
	}
	return nil
}

// edges replays each move from the parent's stones.
func (c *checker) edges(ctx context.Context) error {
	bk, rep, problem, r := c.bk, c.rep, c.problem, c.bk.rules
	rows, err := bk.r.QueryContext(ctx, `SELECT e.parent, e.move, e.child, p.stones, p.to_move, c.key
FROM edge e JOIN position p ON p.id = e.parent JOIN position c ON c.id = e.child ORDER BY e.parent`)
	if err != nil {
		return err
	}
	for rows.Next() {
		if rep.Edges%4096 == 0 && ctx.Err() != nil {
			rows.Close()
			return ctx.Err()
		}
		var parent, mv, child, ckey int64
		var st []byte
		var tm int
		if err := rows.Scan(&parent, &mv, &child, &st, &tm, &ckey); err != nil {
			rows.Close()
			return err
		}
		rep.Edges++
		list, err := decodeStones(r, st)
		if err != nil {
			continue // reported above
		}
		m, err := unpackMove(mv)
		if err != nil {
			problem("edge %d -> %d: %v", parent, child, err)
			continue
		}
		if rm := repMove(r, stabilizer(r, list), m); packMove(rm) != packMove(m) {
			problem("edge %d -> %d: move %s is not its symmetry representative", parent, child, game.MoveName(r, m))
		}
		b := bk.board(list, game.Color(tm))
		if err := legalTurn(r, b, len(list), m); err != nil {
			problem("edge %d -> %d: illegal move %s: %v", parent, child, game.MoveName(r, m), err)
			continue
		}
		for i := 0; i < m.Len(); i++ {
			b.Place(m.At(i), b.ToMove())
		}
		b.SetToMove(b.ToMove().Opp())
		if k, _ := b.CanonicalKey(); k != uint64(ckey) {
			problem("edge %d -> %d: move %s leads to key %#x, the child has %#x", parent, child, game.MoveName(r, m), k, uint64(ckey))
		}
	}
	if err := rows.Close(); err != nil {
		return err
	}
	return nil
}

// statuses checks that every stored status row equals its re-derivation,
// and that every position that would have a non-default status has its
// row.
func (c *checker) statuses(ctx context.Context) error {
	bk, rep, problem, r := c.bk, c.rep, c.problem, c.bk.rules
	stored := map[statusKey]c6book.Proof{}
	c.stored = stored
	rows, err := bk.r.QueryContext(ctx, "SELECT s.pos, s.attacker, s.status, s.ord, s.how, s.expert, s.pn, s.dn, s.updated_at, "+zoneCols+" FROM status s")
	if err != nil {
		return err
	}
	for rows.Next() {
		var id int64
		var a int
		var np nullProof
		if err := rows.Scan(&id, &a, &np.status, &np.ord, &np.how, &np.expert, &np.pn, &np.dn, &np.updated, &np.zone, &np.hasZone); err != nil {
			rows.Close()
			return err
		}
		pr := np.proof(game.Color(a))
		if pr.Zone, err = np.zoneOf(r); err != nil {
			rows.Close()
			return fmt.Errorf("position %d: %w", id, err)
		}
		stored[statusKey{PosID(id), game.Color(a)}] = pr
	}
	if err := rows.Close(); err != nil {
		return err
	}
	// Candidates: rows, terminal positions, verified positions.
	cands := map[PosID]bool{}
	for k := range stored {
		cands[k.id] = true
	}
	for _, q := range []string{"SELECT id FROM position WHERE winner <> 0", "SELECT pos FROM verdict",
		"SELECT DISTINCT e.parent FROM status s JOIN edge e ON e.child = s.pos"} {
		rows, err := bk.r.QueryContext(ctx, q)
		if err != nil {
			return err
		}
		for rows.Next() {
			var id int64
			if err := rows.Scan(&id); err != nil {
				rows.Close()
				return err
			}
			cands[PosID(id)] = true
		}
		if err := rows.Close(); err != nil {
			return err
		}
	}
	for id := range cands {
		if err := ctx.Err(); err != nil {
			return err
		}
		for a := game.Black; a <= game.White; a++ {
			old, ok := stored[statusKey{id, a}]
			if !ok {
				old = defaultProof(a)
			}
			np, missing, err := recompute(ctx, bk, bk.r, id, a, old.Expert)
			if err != nil {
				return err
			}
			if len(missing) > 0 {
				problem("position %d, attacker %s: %d items of its verdict are not stored as children", id, a, len(missing))
			}
			rep.Statuses++
			if np.Status == c6book.StatusProved {
				rep.Proved++
			}
			if !ok {
				// No row: an unexplored leaf (1/1) by definition; only its
				// status must agree.
				old.PN, old.DN = np.PN, np.DN
			}
			if !c6book.SameProof(old, np) {
				problem("position %d, attacker %s: stored %s (order %d, pn %d, dn %d, zone %d squares), re-derived %s (order %d, pn %d, dn %d, zone %d squares)",
					id, a, old.Status, old.Order, old.PN, old.DN, len(old.Zone), np.Status, np.Order, np.PN, np.DN, len(np.Zone))
			}
		}
	}
	return nil
}

// proofs re-checks every proved position from its certificates alone
// (proofcheck).
func (c *checker) proofs(ctx context.Context) error {
	bk, rep, problem, progress, stored := c.bk, c.rep, c.problem, c.progress, c.stored
	var roots []proofcheck.Root
	for k, p := range stored {
		if p.Status == c6book.StatusProved {
			roots = append(roots, proofcheck.Root{ID: int64(k.id), Attacker: k.a})
		}
	}
	slices.SortFunc(roots, func(x, y proofcheck.Root) int {
		if x.ID != y.ID {
			return int(x.ID - y.ID)
		}
		return int(x.Attacker) - int(y.Attacker)
	})
	var prog func(int)
	if progress != nil {
		prog = func(n int) { progress(CheckProgress{Checked: n, Total: len(roots)}) }
	}
	n, err := proofcheck.CheckBook(ctx, &checkSource{bk: bk}, roots, prog)
	rep.Proofs = int64(n)
	var f *proofcheck.Failure
	switch {
	case errors.As(err, &f):
		where := fmt.Sprintf("position %d", f.ID)
		if turns, ok := bk.lineThrough(ctx, PosID(f.Root), f.Line); ok {
			where = fmt.Sprintf("%q (position %d)", game.FormatTurns(bk.rules, turns), f.ID)
		}
		problem("proof of position %d for %s is broken at %s: %s", f.Root, f.Attacker, where, f.Reason)
	case err != nil:
		return err
	}
	return nil
}

// legalTurn checks move m on a board rebuilt from a stored stone set (n
// stones): the game is not over, at most the turn's stones, on empty
// squares, each once.
func legalTurn(r game.Rules, b *board.Board, n int, m game.Move) error {
	want := r.P
	if n == 0 {
		want = r.Q
	}
	if b.Winner() != game.Empty {
		return board.ErrGameOver
	}
	if m.Len() > want {
		return board.ErrStoneCount
	}
	for i := 0; i < m.Len(); i++ {
		s := m.At(i)
		if s < 0 || int(s) >= r.Squares() {
			return board.ErrOffBoard
		}
		if b.At(s) != game.Empty {
			return board.ErrOccupied
		}
		if i > 0 && m.At(i-1) == s {
			return board.ErrDuplicate
		}
	}
	return nil
}

// lineThrough returns a line from the empty board to position id followed
// by tail (moves in id's canonical frame), in the empty board's frame.
func (bk *Book) lineThrough(ctx context.Context, id PosID, tail []game.Move) ([]game.Move, bool) {
	lines, err := bk.PathsFromRoot(ctx, id, 1)
	if err != nil || len(lines) != 1 {
		return nil, false
	}
	b, err := board.ReplayPartial(bk.rules, lines[0].Turns)
	if err != nil {
		return nil, false
	}
	out := append([]game.Move(nil), lines[0].Turns...)
	for _, mc := range tail {
		_, sym := b.CanonicalKey()
		m := FromCanonical(bk.rules, sym, mc)
		if err := b.PlayPartial(m); err != nil {
			return nil, false
		}
		out = append(out, m)
	}
	return out, true
}
