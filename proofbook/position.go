package proofbook

import (
	"bytes"
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"c6book"
	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/internal/idset"
	"c6book/proofcheck"
)

// wtx is one write transaction with the statements the tree walk needs and
// the positions whose status must be propagated before commit.
type wtx struct {
	bk       *Book
	tx       *sql.Tx
	now      int64
	findEdge *sql.Stmt
	findPos  *sql.Stmt
	insPos   *sql.Stmt
	insEdge  *sql.Stmt
	hasStat  *sql.Stmt
	dirty    []PosID
	// anyStatus: the book had status rows when the transaction began (else
	// no parent can have one before finish). fresh: positions inserted by
	// this transaction that have no stored move yet. Positions from
	// firstNew on are inserted by this transaction (ids only grow): no
	// status row before finish. (fresh holds id-firstNew, a bit a
	// position: an import of millions of positions stays small.)
	anyStatus bool
	fresh     idset.Set
	firstNew  PosID
	cells     []game.Color
	added     int // positions inserted
	edges     int // edges inserted
	// Games stored by the transaction (see addGame): their statements and
	// what they add to the positions' counts.
	insGame, insGamePos *sql.Stmt
	gameDelta           map[PosID]*gameDelta
	// game: the game being stored (see beginGame), nil otherwise.
	game *gameInProgress
}

func (bk *Book) newWtx(ctx context.Context, tx *sql.Tx) (*wtx, error) {
	w := &wtx{bk: bk, tx: tx, now: time.Now().Unix()}
	var err error
	prep := func(q string) *sql.Stmt {
		if err != nil {
			return nil
		}
		var s *sql.Stmt
		s, err = tx.PrepareContext(ctx, q)
		return s
	}
	w.findEdge = prep("SELECT child FROM edge WHERE parent = ? AND move = ?")
	w.findPos = prep("SELECT id, stones, to_move FROM position WHERE key = ?")
	w.insPos = prep("INSERT INTO position(key, stones, to_move, nstones, winner, created_at, games, bwins, wwins) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")
	w.insEdge = prep("INSERT INTO edge(parent, move, child) VALUES (?, ?, ?)")
	w.hasStat = prep("SELECT 1 FROM status WHERE pos = ? LIMIT 1")
	if err != nil {
		return nil, err
	}
	var last int64
	if err := tx.QueryRowContext(ctx, "SELECT coalesce(max(id), 0) FROM position").Scan(&last); err != nil {
		return nil, err
	}
	w.firstNew = PosID(last + 1)
	err = tx.QueryRowContext(ctx, "SELECT EXISTS (SELECT 1 FROM status)").Scan(&w.anyStatus)
	return w, err
}

// node is a position reached while walking: its id, the symmetry mapping
// the walked board onto the canonical frame, and its canonical stones.
type node struct {
	id   PosID
	sym  int
	list []stone
}

// prepared is one move of a walk, computed from the boards alone (no SQL),
// so that game imports can compute it on another core: the edge's packed
// move (the parent's canonical frame, symmetry representative) and the
// child position.
type prepared struct {
	move   int64
	null   bool
	key    uint64
	sym    int
	list   []stone
	toMove game.Color
	winner game.Color
}

// prepare plays move m (in b's own frame) on b, from a position whose
// canonical frame is reached by symmetry sym and whose canonical stones are
// list. With partial, a turn may place fewer stones (null and seminull
// moves). On error b is unchanged. cells is a scratch board (all Empty).
func prepare(r game.Rules, b *board.Board, sym int, list []stone, m game.Move, partial bool, cells []game.Color) (prepared, error) {
	want := r.P
	if len(list) == 0 {
		want = r.Q
		if m.Len() == 0 {
			// A position is its stones and the side to move: the empty
			// board with White to move would read as the first turn.
			return prepared{}, errors.New("a null move on the empty board cannot be stored (the position after it would read as the first turn)")
		}
	}
	var err error
	if m.Len() < want && partial {
		err = b.PlayPartial(m)
	} else {
		err = b.Play(m)
	}
	if err != nil {
		return prepared{}, err
	}
	mc := repMove(r, stabilizerBuf(r, list, cells), ToCanonical(r, sym, m))
	key, csym := b.CanonicalKey()
	return prepared{move: packMove(mc), null: m.Len() == 0, key: key, sym: csym, list: canonStones(r, b, csym),
		toMove: b.ToMove(), winner: b.Winner()}, nil
}

// stabilizerBuf is stabilizer with a scratch board (left all Empty).
func stabilizerBuf(r game.Rules, list []stone, cells []game.Color) []int {
	syms := []int{0}
	for _, st := range list {
		cells[st.sq] = st.c
	}
	for t := 1; t < r.SymmetryCount(); t++ {
		ok := true
		for _, st := range list {
			if cells[r.Transform(t, st.sq)] != st.c {
				ok = false
				break
			}
		}
		if ok {
			syms = append(syms, t)
		}
	}
	for _, st := range list {
		cells[st.sq] = game.Empty
	}
	return syms
}

// findOrAdd returns the stored position of a prepared child (inserting it).
func (w *wtx) findOrAdd(ctx context.Context, p prepared) (node, error) {
	enc := encodeList(p.list)
	// One row per key (a unique index): a stored row with other stones is a
	// collision. (A lookup then a plain insert measured faster than an
	// upsert with RETURNING.)
	var id int64
	var st []byte
	var tm int
	switch err := w.findPos.QueryRowContext(ctx, int64(p.key)).Scan(&id, &st, &tm); {
	case err == nil:
		if !bytes.Equal(st, enc) || game.Color(tm) != p.toMove {
			return node{}, fmt.Errorf("%w (key %#x)", ErrCollision, p.key)
		}
		return node{PosID(id), p.sym, p.list}, nil
	case !errors.Is(err, sql.ErrNoRows):
		return node{}, err
	}
	// A position new with the game being stored starts with that game
	// counted (addGame leaves it out of the deltas).
	var games, bwins, wwins int
	if g := w.game; g != nil {
		games = 1
		switch g.result {
		case game.Black:
			bwins = 1
		case game.White:
			wwins = 1
		}
	}
	res, err := w.insPos.ExecContext(ctx, int64(p.key), enc, int(p.toMove), len(p.list), int(p.winner), w.now, games, bwins, wwins)
	if err != nil {
		return node{}, err
	}
	if id, err = res.LastInsertId(); err != nil {
		return node{}, err
	}
	if w.game != nil {
		w.game.created[PosID(id)] = true
	}
	w.added++
	w.fresh.Add(id - int64(w.firstNew))
	if p.winner != game.Empty {
		w.dirty = append(w.dirty, PosID(id))
	}
	return node{PosID(id), p.sym, p.list}, nil
}

// step plays move m (in b's own frame) on b from the stored position cur
// and returns the child, adding the edge and the position when new. With
// partial, a turn may place fewer stones (null and seminull moves). On
// error b is unchanged.
func (w *wtx) step(ctx context.Context, b *board.Board, cur node, m game.Move, partial bool) (node, error) {
	if w.cells == nil {
		w.cells = make([]game.Color, w.bk.rules.Squares())
	}
	p, err := prepare(w.bk.rules, b, cur.sym, cur.list, m, partial, w.cells)
	if err != nil {
		return node{}, err
	}
	next, err := w.apply(ctx, cur.id, p)
	if err != nil {
		b.Undo()
		return node{}, err
	}
	return next, nil
}

// apply stores a prepared move from position cur: the edge and the child
// when new.
func (w *wtx) apply(ctx context.Context, cur PosID, p prepared) (node, error) {
	var child int64
	var err error
	if cur >= w.firstNew && w.fresh.Has(int64(cur-w.firstNew)) {
		err = sql.ErrNoRows // a position new in this transaction, without moves yet
	} else {
		err = w.findEdge.QueryRowContext(ctx, int64(cur), p.move).Scan(&child)
	}
	if err == nil {
		return node{PosID(child), p.sym, p.list}, nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return node{}, err
	}
	next, err := w.findOrAdd(ctx, p)
	if err != nil {
		return node{}, err
	}
	if p.null {
		// Two null moves between the same stones would make a cycle.
		var x int64
		err := w.findEdge.QueryRowContext(ctx, int64(next.id), int64(0)).Scan(&x)
		if err == nil && PosID(x) == cur {
			return node{}, errors.New("a null move back to the position it came from would make a cycle")
		}
	}
	if _, err := w.insEdge.ExecContext(ctx, int64(cur), p.move, int64(next.id)); err != nil {
		return node{}, err
	}
	w.edges++
	w.fresh.Del(int64(cur - w.firstNew))
	if !w.anyStatus {
		return next, nil
	}
	// The parent's status changes when it has one (a new move counts in its
	// proof numbers) or when the move leads to a position with one.
	for _, id := range []PosID{cur, next.id} {
		if id >= w.firstNew {
			continue
		}
		var one int
		switch err := w.hasStat.QueryRowContext(ctx, int64(id)).Scan(&one); {
		case err == nil:
			w.dirty = append(w.dirty, cur)
			return next, nil
		case !errors.Is(err, sql.ErrNoRows):
			return node{}, err
		}
	}
	return next, nil
}

// finish adds the game counts of the games the transaction stored and
// propagates the statuses it touched.
func (w *wtx) finish(ctx context.Context) error {
	if err := w.flushGames(ctx); err != nil {
		return err
	}
	if len(w.dirty) == 0 {
		return nil
	}
	d := w.dirty
	w.dirty = nil
	return propagate(ctx, w.bk, w.tx, d)
}

// load reads a stored position's canonical stones and side to move.
func loadPos(ctx context.Context, q queryer, r game.Rules, id PosID) ([]stone, game.Color, error) {
	var st []byte
	var tm int
	err := q.QueryRowContext(ctx, "SELECT stones, to_move FROM position WHERE id = ?", int64(id)).Scan(&st, &tm)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, 0, fmt.Errorf("position %d: %w", id, ErrNotFound)
	}
	if err != nil {
		return nil, 0, err
	}
	list, err := decodeStones(r, st)
	if err != nil {
		return nil, 0, fmt.Errorf("position %d: %w", id, err)
	}
	return list, game.Color(tm), nil
}

type queryer interface {
	QueryRowContext(ctx context.Context, q string, args ...any) *sql.Row
	QueryContext(ctx context.Context, q string, args ...any) (*sql.Rows, error)
}

// Board returns the board of a stored position in its canonical frame.
func (bk *Book) Board(ctx context.Context, id PosID) (*board.Board, error) {
	list, tm, err := loadPos(ctx, bk.r, bk.rules, id)
	if err != nil {
		return nil, err
	}
	return bk.setUpBoard(list, tm)
}

// Locate finds the position of board b (any frame). sym maps b's moves into
// the position's canonical frame (see ToCanonical and FromCanonical).
func (bk *Book) Locate(ctx context.Context, b *board.Board) (id PosID, sym int, err error) {
	if b.Rules() != bk.rules {
		return 0, 0, fmt.Errorf("board rules %s, book rules %s", b.Rules(), bk.rules)
	}
	key, sym := b.CanonicalKey()
	id, err = findPosition(ctx, bk.r, key, encodeStones(bk.rules, b, sym), b.ToMove())
	return id, sym, err
}

// Play stores move m (in the canonical frame of position id) and returns
// the position it leads to. Null and seminull moves (fewer stones than the
// turn places) are allowed: a defender's λ moves.
func (bk *Book) Play(ctx context.Context, id PosID, m game.Move) (PosID, error) {
	var child PosID
	err := bk.write(ctx, func(tx *sql.Tx) error {
		w, list, b, err := bk.walkFrom(ctx, tx, id)
		if err != nil {
			return err
		}
		n, err := w.step(ctx, b, node{id: id, sym: 0, list: list}, m, true)
		if err != nil {
			return fmt.Errorf("%s: %w", game.MoveName(bk.rules, m), err)
		}
		child = n.id
		if err := w.linkNew(ctx, []PosID{child}); err != nil {
			return err
		}
		return w.finish(ctx)
	})
	return child, err
}

// walkFrom starts a tree walk in transaction tx at stored position id: the
// walk, the position's canonical stones and its board.
func (bk *Book) walkFrom(ctx context.Context, tx *sql.Tx, id PosID) (*wtx, []stone, *board.Board, error) {
	w, err := bk.newWtx(ctx, tx)
	if err != nil {
		return nil, nil, nil, err
	}
	list, tm, err := loadPos(ctx, tx, bk.rules, id)
	if err != nil {
		return nil, nil, nil, err
	}
	b, err := bk.setUpBoard(list, tm)
	if err != nil {
		return nil, nil, nil, err
	}
	return w, list, b, nil
}

// PlayFrom stores move m played on board b (both in b's frame); b must be
// a stored position. b is not changed.
func (bk *Book) PlayFrom(ctx context.Context, b *board.Board, m game.Move) (PosID, error) {
	id, sym, err := bk.Locate(ctx, b)
	if err != nil {
		return 0, err
	}
	return bk.Play(ctx, id, ToCanonical(bk.rules, sym, m))
}

// AddLine stores the turns from the empty board (one transaction) and
// returns the line. Every turn must place the stones the rules ask for.
func (bk *Book) AddLine(ctx context.Context, turns []game.Move) (Line, error) {
	return bk.addLineTx(ctx, turns, false)
}

// AddProofLine is AddLine for a proof line: a turn with fewer stones than
// the rules place is stored as a null or seminull move.
func (bk *Book) AddProofLine(ctx context.Context, turns []game.Move) (Line, error) {
	return bk.addLineTx(ctx, turns, true)
}

func (bk *Book) addLineTx(ctx context.Context, turns []game.Move, partial bool) (Line, error) {
	var line Line
	err := bk.write(ctx, func(tx *sql.Tx) error {
		w, err := bk.newWtx(ctx, tx)
		if err != nil {
			return err
		}
		line, err = w.addLine(ctx, turns, partial)
		if err != nil {
			return err
		}
		if err := w.linkNew(ctx, line.IDs); err != nil {
			return err
		}
		return w.finish(ctx)
	})
	return line, err
}

func (w *wtx) addLine(ctx context.Context, turns []game.Move, partial bool) (Line, error) {
	b := w.bk.tmpl.Clone()
	cur := node{id: w.bk.root}
	line := Line{IDs: []PosID{cur.id}}
	for i, m := range turns {
		n, err := w.step(ctx, b, cur, m, partial)
		if err != nil {
			return Line{}, fmt.Errorf("turn %d (%s): %w", i+1, game.MoveName(w.bk.rules, m), err)
		}
		cur = n
		line.Turns = append(line.Turns, m)
		line.IDs = append(line.IDs, n.id)
	}
	return line, nil
}

// Children lists the stored moves of a position with their statuses and
// game counts: most played first (the games through the position each
// leads to), then by the status for the side that plays the move (proved,
// open, unknown, disproved), then in stored move order, so that a reply
// list reads like an opening book and its first row is the main line.
func (bk *Book) Children(ctx context.Context, id PosID) ([]Child, error) {
	pi, err := readInfo(ctx, bk.r, id)
	if errors.Is(err, ErrNotFound) {
		return nil, nil // no such position: no moves (as before)
	}
	if err != nil {
		return nil, err
	}
	rows, err := bk.r.QueryContext(ctx, `
SELECT e.move, e.child,
       sb.status, sb.ord, sb.how, sb.expert, sb.pn, sb.dn, sb.updated_at,
       sw.status, sw.ord, sw.how, sw.expert, sw.pn, sw.dn, sw.updated_at,
       n.label, n.pos IS NOT NULL, c.games, c.bwins, c.wwins
FROM edge e
JOIN position c ON c.id = e.child
LEFT JOIN status sb ON sb.pos = e.child AND sb.attacker = 1
LEFT JOIN status sw ON sw.pos = e.child AND sw.attacker = 2
LEFT JOIN note n ON n.pos = e.child
WHERE e.parent = ? ORDER BY e.move`, int64(id))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Child
	for rows.Next() {
		var c Child
		var mv, child, games, bwins, wwins int64
		var ps [2]nullProof
		var label sql.NullString
		if err := rows.Scan(&mv, &child,
			&ps[0].status, &ps[0].ord, &ps[0].how, &ps[0].expert, &ps[0].pn, &ps[0].dn, &ps[0].updated,
			&ps[1].status, &ps[1].ord, &ps[1].how, &ps[1].expert, &ps[1].pn, &ps[1].dn, &ps[1].updated,
			&label, &c.Note, &games, &bwins, &wwins); err != nil {
			return nil, err
		}
		m, err := unpackMove(mv)
		if err != nil {
			return nil, err
		}
		c.Move, c.ID, c.Label = m, PosID(child), label.String
		c.Games = gameStats(games, bwins, wwins)
		for i := range ps {
			c.Proofs[i] = ps[i].proof(game.Color(i + 1))
		}
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		return nil, err
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
	SortChildren(out, pi.toMove)
	return out, nil
}

// SortChildren orders replies as Children returns them: most games first,
// then by status for mover, the side that plays them (proved, open,
// unknown, disproved), then by stored move (a stable order).
func SortChildren(kids []Child, mover game.Color) {
	rank := func(c Child) int {
		if mover != game.Black && mover != game.White {
			return 0
		}
		switch c.Proof(mover).Status {
		case c6book.StatusProved:
			return 0
		case c6book.StatusOpen:
			return 1
		case c6book.StatusDisproved:
			return 3
		}
		return 2
	}
	slices.SortStableFunc(kids, func(a, b Child) int {
		if a.Games.Games != b.Games.Games {
			return cmp.Compare(b.Games.Games, a.Games.Games)
		}
		if ra, rb := rank(a), rank(b); ra != rb {
			return cmp.Compare(ra, rb)
		}
		return cmp.Compare(packMove(a.Move), packMove(b.Move))
	})
}

// nullProof scans a status row that may be missing.
type nullProof struct {
	status, ord, expert, pn, dn, updated sql.NullInt64
	how                                  sql.NullString
	zone                                 []byte // scanned with zoneCols
	hasZone                              sql.NullBool
}

// zoneCols selects a status row's zone (alias s) for scanZone.
const zoneCols = "s.zone, s.zone IS NOT NULL"

// zoneOf decodes the zone scanned with zoneCols.
func (n nullProof) zoneOf(r game.Rules) ([]game.Square, error) {
	return unpackSquares(r, n.zone, n.hasZone.Valid && n.hasZone.Bool)
}

func (n nullProof) proof(a game.Color) c6book.Proof {
	if !n.status.Valid {
		return defaultProof(a)
	}
	return c6book.Proof{Attacker: a, Status: c6book.Status(n.status.Int64), Order: int(n.ord.Int64), How: c6book.ProofHow(n.how.String),
		Expert: n.expert.Int64 != 0, PN: n.pn.Int64, DN: n.dn.Int64, Updated: time.Unix(n.updated.Int64, 0)}
}

func defaultProof(a game.Color) c6book.Proof { return c6book.LeafProof(a) }

// Position returns everything stored about a position. While the book's
// proofs were changed outside the program (ProofsChecked is false), its
// proved statuses, and a proved verdict's, read StatusUnchecked.
func (bk *Book) Position(ctx context.Context, id PosID) (Position, error) {
	mask, err := bk.proofMask(ctx)
	if err != nil {
		return Position{}, err
	}
	return bk.position(ctx, id, mask)
}

// position is Position with the mask of proofMask.
func (bk *Book) position(ctx context.Context, id PosID, mask func(*c6book.Proof)) (Position, error) {
	p := Position{ID: id}
	var key, created int64
	var st []byte
	var tm, winner int
	err := bk.r.QueryRowContext(ctx, "SELECT key, stones, to_move, winner, created_at FROM position WHERE id = ?", int64(id)).
		Scan(&key, &st, &tm, &winner, &created)
	if errors.Is(err, sql.ErrNoRows) {
		return p, fmt.Errorf("position %d: %w", id, ErrNotFound)
	}
	if err != nil {
		return p, err
	}
	list, err := decodeStones(bk.rules, st)
	if err != nil {
		return p, fmt.Errorf("position %d: %w", id, err)
	}
	for _, s := range list {
		if s.c == game.Black {
			p.Black = append(p.Black, s.sq)
		} else {
			p.White = append(p.White, s.sq)
		}
	}
	p.Key, p.ToMove, p.Winner, p.Created = uint64(key), game.Color(tm), game.Color(winner), time.Unix(created, 0)
	p.Updated = p.Created
	var marks string
	var upd int64
	err = bk.r.QueryRowContext(ctx, "SELECT comment, label, marks, updated_at FROM note WHERE pos = ?", int64(id)).
		Scan(&p.Comment, &p.Label, &marks, &upd)
	switch {
	case err == nil:
		p.Updated = time.Unix(upd, 0)
		if marks != "" {
			if err := json.Unmarshal([]byte(marks), &p.Marks); err != nil {
				return p, fmt.Errorf("position %d: stored marks: %w", id, err)
			}
		}
	case !errors.Is(err, sql.ErrNoRows):
		return p, err
	}
	for a := game.Black; a <= game.White; a++ {
		p.Proofs[a-1] = defaultProof(a)
	}
	rows, err := bk.r.QueryContext(ctx, "SELECT s.attacker, s.status, s.ord, s.how, s.expert, s.pn, s.dn, s.updated_at, "+zoneCols+" FROM status s WHERE s.pos = ?", int64(id))
	if err != nil {
		return p, err
	}
	defer rows.Close()
	for rows.Next() {
		var a int
		var np nullProof
		if err := rows.Scan(&a, &np.status, &np.ord, &np.how, &np.expert, &np.pn, &np.dn, &np.updated, &np.zone, &np.hasZone); err != nil {
			return p, err
		}
		if a == 1 || a == 2 {
			p.Proofs[a-1] = np.proof(game.Color(a))
			if p.Proofs[a-1].Zone, err = np.zoneOf(bk.rules); err != nil {
				return p, fmt.Errorf("position %d: %w", id, err)
			}
		}
	}
	if err := rows.Err(); err != nil {
		return p, err
	}
	v, err := loadVerdict(ctx, bk.r, id)
	if err != nil {
		return p, err
	}
	p.Verdict = v
	for i := range p.Proofs {
		mask(&p.Proofs[i])
	}
	if v != nil {
		// The verdict's own claim is a proof row too.
		vp := c6book.Proof{Status: v.Status}
		mask(&vp)
		v.Status = vp.Status
	}
	return p, nil
}

func loadVerdict(ctx context.Context, q queryer, id PosID) (*c6book.Verdict, error) {
	v, _, err := loadVerdictRaw(ctx, q, id)
	return v, err
}

// loadVerdictRaw is loadVerdict that also returns the certificate's stored
// bytes (nil when none).
func loadVerdictRaw(ctx context.Context, q queryer, id PosID) (*c6book.Verdict, []byte, error) {
	var data string
	var created int64
	var cert []byte
	err := q.QueryRowContext(ctx, "SELECT data, created_at, cert FROM verdict WHERE pos = ?", int64(id)).Scan(&data, &created, &cert)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	v, err := unmarshalVerdict(data)
	if err != nil {
		return nil, nil, fmt.Errorf("position %d: %w", id, err)
	}
	v.Created = time.Unix(created, 0)
	if cert != nil {
		v.Cert = new(proofcheck.Cert)
		if err := v.Cert.UnmarshalBinary(cert); err != nil {
			return nil, nil, fmt.Errorf("position %d: stored certificate: %w", id, err)
		}
	}
	return &v, cert, nil
}

// loadVerdictData is loadVerdict without the certificate, which is not
// read nor decoded: hasCert says whether one is stored.
func loadVerdictData(ctx context.Context, q queryer, id PosID) (v *c6book.Verdict, hasCert bool, err error) {
	var data string
	err = q.QueryRowContext(ctx, "SELECT data, cert IS NOT NULL FROM verdict WHERE pos = ?", int64(id)).Scan(&data, &hasCert)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	d, err := unmarshalVerdict(data)
	if err != nil {
		return nil, false, fmt.Errorf("position %d: %w", id, err)
	}
	return &d, hasCert, nil
}

// setNote changes one annotation column of a position.
func (bk *Book) setNote(ctx context.Context, id PosID, col, val string) error {
	return bk.write(ctx, func(tx *sql.Tx) error {
		var one int
		if err := tx.QueryRowContext(ctx, "SELECT 1 FROM position WHERE id = ?", int64(id)).Scan(&one); err != nil {
			if errors.Is(err, sql.ErrNoRows) {
				return fmt.Errorf("position %d: %w", id, ErrNotFound)
			}
			return err
		}
		_, err := tx.ExecContext(ctx, "INSERT INTO note(pos, "+col+", updated_at) VALUES (?, ?, ?) "+
			"ON CONFLICT(pos) DO UPDATE SET "+col+" = excluded."+col+", updated_at = excluded.updated_at WHERE "+col+" <> excluded."+col,
			int64(id), val, time.Now().Unix())
		return err
	})
}

// SetComment replaces a position's comment.
func (bk *Book) SetComment(ctx context.Context, id PosID, text string) error {
	return bk.setNote(ctx, id, "comment", text)
}

// SetLabel sets a position's user label ("joseki", "trap"; "" clears it).
func (bk *Book) SetLabel(ctx context.Context, id PosID, label string) error {
	return bk.setNote(ctx, id, "label", label)
}

// SetMarks replaces a position's board marks and labels (canonical frame).
func (bk *Book) SetMarks(ctx context.Context, id PosID, marks []Mark) error {
	sq := bk.rules.Squares()
	for _, m := range marks {
		if m.Square < 0 || int(m.Square) >= sq {
			return fmt.Errorf("mark on square %d: %w", m.Square, board.ErrOffBoard)
		}
	}
	val := ""
	if len(marks) > 0 {
		data, err := json.Marshal(marks)
		if err != nil {
			return err
		}
		val = string(data)
	}
	return bk.setNote(ctx, id, "marks", val)
}

// RemoveMove deletes the stored move m (in id's canonical frame) and
// propagates the statuses. The child position is deleted too when nothing
// else refers to it (no other parent, no moves, notes, verdict or game
// through it). A move the position's verdict leaves to prove (an item the
// proof rules would store again) is refused with c6book.ErrVerdictItem, and
// nothing changes: undoing the verify that stored the verdict
// (UndoVerdict) removes its items with it.
func (bk *Book) RemoveMove(ctx context.Context, id PosID, m game.Move) error {
	return bk.write(ctx, func(tx *sql.Tx) error {
		list, _, err := loadPos(ctx, tx, bk.rules, id)
		if err != nil {
			return err
		}
		rep := repMove(bk.rules, stabilizer(bk.rules, list), m)
		found, err := bk.removeEdges(ctx, tx, id, []game.Move{rep})
		if err != nil {
			return err
		}
		if found == 0 {
			return fmt.Errorf("move %s of position %d: %w", game.MoveName(bk.rules, m), id, ErrNotFound)
		}
		for a := game.Black; a <= game.White; a++ {
			old, _, err := readProof(ctx, tx, bk.rules, id, a)
			if err != nil {
				return err
			}
			_, missing, err := recompute(ctx, bk, tx, id, a, old.Expert)
			if err != nil {
				return err
			}
			if slices.Contains(missing, rep) {
				return fmt.Errorf("move %s of position %d: %w", game.MoveName(bk.rules, m), id, c6book.ErrVerdictItem)
			}
		}
		return propagate(ctx, bk, tx, []PosID{id})
	})
}

// removeEdges deletes the stored moves reps of position id (its canonical
// frame, representatives) and each child position that nothing else
// refers to then; found counts the moves that were stored. The caller
// propagates.
func (bk *Book) removeEdges(ctx context.Context, tx *sql.Tx, id PosID, reps []game.Move) (found int, err error) {
	// The games that end in a child: one pass over the games for all the
	// moves (game.leaf has no index).
	rows, err := tx.QueryContext(ctx, "SELECT DISTINCT leaf FROM game WHERE leaf IN (SELECT child FROM edge WHERE parent = ?)", int64(id))
	if err != nil {
		return 0, err
	}
	leaves := map[int64]bool{}
	for rows.Next() {
		var leaf int64
		if err := rows.Scan(&leaf); err != nil {
			rows.Close()
			return 0, err
		}
		leaves[leaf] = true
	}
	if err := rows.Close(); err != nil {
		return 0, err
	}
	for _, rep := range reps {
		ok, err := bk.removeEdge(ctx, tx, id, rep, leaves)
		if err != nil {
			return found, err
		}
		if ok {
			found++
		}
	}
	return found, nil
}

// removeEdge is removeEdges of one move; leaves are the children that are
// a game's last position.
func (bk *Book) removeEdge(ctx context.Context, tx *sql.Tx, id PosID, rep game.Move, leaves map[int64]bool) (found bool, err error) {
	pm := packMove(rep)
	var child int64
	err = tx.QueryRowContext(ctx, "SELECT child FROM edge WHERE parent = ? AND move = ?", int64(id), pm).Scan(&child)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if _, err := tx.ExecContext(ctx, "DELETE FROM edge WHERE parent = ? AND move = ?", int64(id), pm); err != nil {
		return false, err
	}
	var refs int
	if err := tx.QueryRowContext(ctx, `SELECT
 (SELECT count(*) FROM edge WHERE child = ?1) + (SELECT count(*) FROM edge WHERE parent = ?1) +
 (SELECT count(*) FROM note WHERE pos = ?1) + (SELECT count(*) FROM verdict WHERE pos = ?1) +
 (SELECT count(*) FROM game_pos WHERE pos = ?1) +
 (SELECT count(*) FROM proof WHERE root = ?1) +
 (SELECT count(*) FROM meta WHERE root = ?1) + (SELECT count(*) FROM status WHERE pos = ?1 AND expert <> 0) +
 (SELECT count(*) FROM hold WHERE pos = ?1) + (SELECT count(*) FROM twin WHERE twin = ?1)`, child).Scan(&refs); err != nil {
		return false, err
	}
	if _, err := tx.ExecContext(ctx, "DELETE FROM autopilot_move WHERE parent = ? AND move = ?", int64(id), pm); err != nil {
		return false, err
	}
	if refs == 0 && !leaves[child] {
		var removed []uint64
		for a := game.Black; a <= game.White; a++ {
			h, err := oldStatusHash(ctx, tx, child, int(a))
			if err != nil {
				return false, err
			}
			removed = append(removed, h...)
		}
		if _, err := tx.ExecContext(ctx, "DELETE FROM status WHERE pos = ?", child); err != nil {
			return false, err
		}
		if err := bumpDigest(ctx, tx, removed, nil); err != nil {
			return false, err
		}
		if _, err := tx.ExecContext(ctx, "DELETE FROM autopilot_exhausted WHERE pos = ?", child); err != nil {
			return false, err
		}
		if _, err := tx.ExecContext(ctx, "DELETE FROM twin WHERE pos = ?", child); err != nil {
			return false, err
		}
		if _, err := tx.ExecContext(ctx, "DELETE FROM position WHERE id = ?", child); err != nil {
			return false, err
		}
	}
	return true, nil
}
