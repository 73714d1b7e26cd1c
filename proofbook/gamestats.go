package proofbook

import (
	"bytes"
	"c6book"
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"strings"

	"c6book/engine/board"
	gamepkg "c6book/engine/game"
)

// Game statistics (schema version 6): every stored game keeps its turns as
// played and its result, the positions it reached are listed in game_pos
// (once each: positions are canonical, so transpositions and symmetric
// games meet), and each position counts the games through it by result.
// An import writes the three together, in the transaction that stores the
// game, so that importing a game again (it is stored once per source and
// id) changes nothing.

func gameStats(games, bwins, wwins int64) c6book.GameStats {
	return c6book.GameStats{Games: games, BlackWins: bwins, WhiteWins: wwins, Unfinished: games - bwins - wwins}
}

// encodeTurns packs a game's turns (any frame) as varints of packMove.
func encodeTurns(ms []gamepkg.Move) []byte {
	out := make([]byte, 0, len(ms)*4)
	for _, m := range ms {
		out = binary.AppendUvarint(out, uint64(packMove(m)))
	}
	return out
}

// encodeWritten packs a game's turns as encodeTurns does but each turn's
// stones in the order the record wrote them (packMove's layout, which
// reads back as the same move): "h12k11" is stored as written and read
// back so. A game stored before kept them sorted and reads back sorted.
func encodeWritten(turns [][]gamepkg.Square) []byte {
	out := make([]byte, 0, len(turns)*4)
	for _, sq := range turns {
		v := int64(len(sq))
		for i, s := range sq {
			v |= int64(s) << (3 + 10*uint(i))
		}
		out = binary.AppendUvarint(out, uint64(v))
	}
	return out
}

// writtenOf is the stones of each move, in board order (a game whose
// record order is not known: an SGF main line, a rebuilt line).
func writtenOf(ms []gamepkg.Move) [][]gamepkg.Square {
	out := make([][]gamepkg.Square, len(ms))
	for i, m := range ms {
		out[i] = m.Squares()
	}
	return out
}

// decodeWritten reads stored turns (encodeWritten or encodeTurns), each
// turn's stones in the stored order.
func decodeWritten(data []byte) ([][]gamepkg.Square, error) {
	var out [][]gamepkg.Square
	for len(data) > 0 {
		v, n := binary.Uvarint(data)
		if n <= 0 || v > 1<<62 {
			return nil, errors.New("bad stored turns")
		}
		data = data[n:]
		if _, err := unpackMove(int64(v)); err != nil {
			return nil, err
		}
		sq := make([]gamepkg.Square, v&7)
		for i := range sq {
			sq[i] = gamepkg.Square(v >> (3 + 10*uint(i)) & 1023)
		}
		out = append(out, sq)
	}
	return out, nil
}

func decodeTurns(data []byte) ([]gamepkg.Move, error) {
	w, err := decodeWritten(data)
	if err != nil {
		return nil, err
	}
	out := make([]gamepkg.Move, len(w))
	for i, sq := range w {
		out[i] = gamepkg.NewMove(sq...)
	}
	return out, nil
}

// gameDelta is what the games a transaction stored add to one position's
// counts (flushed in finish).
type gameDelta struct{ games, bwins, wwins int64 }

// gameInProgress is a game whose moves a transaction is storing: the
// positions it creates are inserted with the game counted.
type gameInProgress struct {
	result  gamepkg.Color
	created map[PosID]bool
}

// beginGame says that the moves stored next are those of a new game with
// result (the leaf's winner), until addGame or endGame.
func (w *wtx) beginGame(result gamepkg.Color) {
	w.game = &gameInProgress{result: result, created: map[PosID]bool{}}
}

// endGame forgets the game in progress (stored or given up).
func (w *wtx) endGame() { w.game = nil }

// addGame stores a game whose turns (as played, each turn's stones in the
// record's order) reached the positions path (the root first, its leaf
// last, one per turn after it): its row, its game_pos rows and, at finish,
// the counts. result is the leaf's winner.
func (w *wtx) addGame(ctx context.Context, source, extID string, path []PosID, turns [][]gamepkg.Square, result gamepkg.Color) error {
	if err := w.prepGames(ctx); err != nil {
		return err
	}
	res, err := w.insGame.ExecContext(ctx, source, extID, int64(path[len(path)-1]), len(turns), int(result), encodeWritten(turns))
	if err != nil {
		return err
	}
	gid, err := res.LastInsertId()
	if err != nil {
		return err
	}
	counted, err := w.insertGamePos(ctx, gid, path)
	if err != nil {
		return err
	}
	// Only now (the caller releases the game's savepoint next): a game
	// rolled back leaves the counts alone. The positions it created were
	// inserted with it counted (beginGame).
	if g := w.game; g != nil {
		kept := counted[:0]
		for _, id := range counted {
			if !g.created[id] {
				kept = append(kept, id)
			}
		}
		counted = kept
	}
	w.countGame(counted, result, 1)
	return nil
}

// repairGame gives a stored game whose turns an upgrade rebuilt
// (game.rebuilt) its real turns and the positions they reached, moving its
// counts from the positions of the rebuilt line to those of the real one.
func (w *wtx) repairGame(ctx context.Context, gid int64, path []PosID, turns [][]gamepkg.Square, result gamepkg.Color) error {
	if err := w.prepGames(ctx); err != nil {
		return err
	}
	var oldRes int
	var oldTurns []byte
	if err := w.tx.QueryRowContext(ctx, "SELECT result, turns FROM game WHERE id = ?", gid).Scan(&oldRes, &oldTurns); err != nil {
		return err
	}
	// The positions of the rebuilt line, found by replaying it (game_pos
	// is indexed by position, not by game).
	ms, err := decodeTurns(oldTurns)
	if err != nil {
		return fmt.Errorf("game %d: %w", gid, err)
	}
	b := w.bk.tmpl.Clone()
	var old []PosID
	for i := 0; i <= len(ms); i++ {
		key, sym := b.CanonicalKey()
		var id int64
		var st []byte
		var tm int
		if err := w.findPos.QueryRowContext(ctx, int64(key)).Scan(&id, &st, &tm); err != nil {
			return fmt.Errorf("game %d, rebuilt line, turn %d: %w", gid, i, err)
		}
		if !bytes.Equal(st, encodeStones(w.bk.rules, b, sym)) {
			return fmt.Errorf("game %d, rebuilt line, turn %d: %w", gid, i, ErrCollision)
		}
		res, err := w.tx.ExecContext(ctx, "DELETE FROM game_pos WHERE pos = ? AND game = ?", id, gid)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 1 {
			old = append(old, PosID(id))
		}
		if i < len(ms) {
			if err := b.PlayPartial(ms[i]); err != nil {
				return fmt.Errorf("game %d, rebuilt line, turn %d: %w", gid, i+1, err)
			}
		}
	}
	if _, err := w.tx.ExecContext(ctx, "UPDATE game SET leaf = ?, nturns = ?, result = ?, turns = ?, rebuilt = 0 WHERE id = ?",
		int64(path[len(path)-1]), len(turns), int(result), encodeWritten(turns), gid); err != nil {
		return err
	}
	counted, err := w.insertGamePos(ctx, gid, path)
	if err != nil {
		return err
	}
	w.countGame(old, gamepkg.Color(oldRes), -1)
	w.countGame(counted, result, 1)
	return nil
}

func (w *wtx) prepGames(ctx context.Context) error {
	if w.insGame != nil {
		return nil
	}
	var err error
	if w.insGame, err = w.tx.PrepareContext(ctx, "INSERT INTO game(source, ext_id, leaf, nturns, result, turns) VALUES (?, ?, ?, ?, ?, ?)"); err != nil {
		return err
	}
	w.insGamePos, err = w.tx.PrepareContext(ctx, "INSERT OR IGNORE INTO game_pos(pos, game) VALUES (?, ?)")
	return err
}

// insertGamePos lists game gid under the positions of path (once each) and
// returns those it added.
func (w *wtx) insertGamePos(ctx context.Context, gid int64, path []PosID) ([]PosID, error) {
	counted := make([]PosID, 0, len(path))
	for _, id := range path {
		res, err := w.insGamePos.ExecContext(ctx, int64(id), gid)
		if err != nil {
			return nil, err
		}
		if n, err := res.RowsAffected(); err != nil {
			return nil, err
		} else if n == 1 {
			counted = append(counted, id)
		}
	}
	return counted, nil
}

// countGame adds sign times a game with result to the counts of the
// positions ids (written at finish).
func (w *wtx) countGame(ids []PosID, result gamepkg.Color, sign int64) {
	if w.gameDelta == nil {
		w.gameDelta = map[PosID]*gameDelta{}
	}
	addDeltas(w.gameDelta, ids, result, sign)
}

// addDeltas adds sign times a game with result to the deltas of ids.
func addDeltas(deltas map[PosID]*gameDelta, ids []PosID, result gamepkg.Color, sign int64) {
	for _, id := range ids {
		d := deltas[id]
		if d == nil {
			d = &gameDelta{}
			deltas[id] = d
		}
		d.games += sign
		switch result {
		case gamepkg.Black:
			d.bwins += sign
		case gamepkg.White:
			d.wwins += sign
		}
	}
}

// flushGames adds the counts of the games stored by the transaction.
func (w *wtx) flushGames(ctx context.Context) error {
	if len(w.gameDelta) == 0 {
		return nil
	}
	return addGameCounts(ctx, w.tx, w.gameDelta)
}

func addGameCounts(ctx context.Context, tx *sql.Tx, deltas map[PosID]*gameDelta) error {
	upd, err := tx.PrepareContext(ctx, "UPDATE position SET games = games + ?, bwins = bwins + ?, wwins = wwins + ? WHERE id = ?")
	if err != nil {
		return err
	}
	defer upd.Close()
	for id, d := range deltas {
		if _, err := upd.ExecContext(ctx, d.games, d.bwins, d.wwins, int64(id)); err != nil {
			return err
		}
	}
	return nil
}

// gameStatsSchema is the schema version from which games keep their turns
// and statistics.
const gameStatsSchema = 6

// backfillGames gives the games of a book upgraded to gameStatsSchema their
// turns and statistics, inside the migration's transaction. Older books did
// not keep a game's turns, only its last position: each game is given the
// first path from the root to that position (its stored moves, parents by
// id), which is the game itself unless a transposition leaves several:
// those games are marked rebuilt, and importing them again puts their
// own turns (ImportStats.Repaired). A
// game whose last position no path reaches (its moves were removed) keeps
// no turns and counts nowhere. It returns a note saying what it did.
func backfillGames(ctx context.Context, tx *sql.Tx, path string) (string, error) {
	tmp := &Book{path: path}
	if err := tmp.loadMeta(ctx, tx); err != nil {
		return "", err
	}
	type game struct {
		id   int64
		leaf PosID
		res  gamepkg.Color
	}
	rows, err := tx.QueryContext(ctx, "SELECT id, leaf, result FROM game ORDER BY id")
	if err != nil {
		return "", err
	}
	var games []game
	for rows.Next() {
		var g game
		var res int
		if err := rows.Scan(&g.id, &g.leaf, &res); err != nil {
			rows.Close()
			return "", err
		}
		g.res = gamepkg.Color(res)
		games = append(games, g)
	}
	if err := rows.Close(); err != nil {
		return "", err
	}
	if len(games) == 0 {
		return "", nil
	}
	up, err := tx.PrepareContext(ctx, "SELECT parent, move, (SELECT count(*) FROM edge WHERE child = ?1) FROM edge WHERE child = ?1 ORDER BY parent LIMIT 1")
	if err != nil {
		return "", err
	}
	defer up.Close()
	setTurns, err := tx.PrepareContext(ctx, "UPDATE game SET turns = ?, nturns = ?, rebuilt = ? WHERE id = ?")
	if err != nil {
		return "", err
	}
	defer setTurns.Close()
	insPos, err := tx.PrepareContext(ctx, "INSERT OR IGNORE INTO game_pos(pos, game) VALUES (?, ?)")
	if err != nil {
		return "", err
	}
	defer insPos.Close()
	deltas := map[PosID]*gameDelta{}
	lost, chosen := 0, 0
	for _, g := range games {
		line := Line{IDs: []PosID{g.leaf}}
		cur := g.leaf
		rebuilt := 0 // a position on the way had several parents
		for cur != tmp.root && len(line.IDs) <= tmp.rules.Squares()+1 {
			var p, mv, parents int64
			if err := up.QueryRowContext(ctx, int64(cur)).Scan(&p, &mv, &parents); errors.Is(err, sql.ErrNoRows) {
				break
			} else if err != nil {
				return "", err
			}
			m, err := unpackMove(mv)
			if err != nil {
				return "", err
			}
			line.IDs = append(line.IDs, PosID(p))
			line.Turns = append(line.Turns, m)
			cur = PosID(p)
			if parents > 1 {
				rebuilt = 1
			}
		}
		if cur != tmp.root {
			lost++
			continue
		}
		for i, j := 0, len(line.IDs)-1; i < j; i, j = i+1, j-1 {
			line.IDs[i], line.IDs[j] = line.IDs[j], line.IDs[i]
		}
		for i, j := 0, len(line.Turns)-1; i < j; i, j = i+1, j-1 {
			line.Turns[i], line.Turns[j] = line.Turns[j], line.Turns[i]
		}
		line, err := reframeFrom(tmp, tmp.tmpl.Clone(), line)
		if err != nil {
			return "", fmt.Errorf("game %d: %w", g.id, err)
		}
		if _, err := setTurns.ExecContext(ctx, encodeTurns(line.Turns), len(line.Turns), rebuilt, g.id); err != nil {
			return "", err
		}
		chosen += rebuilt
		for _, id := range line.IDs {
			res, err := insPos.ExecContext(ctx, int64(id), g.id)
			if err != nil {
				return "", err
			}
			if n, _ := res.RowsAffected(); n == 1 {
				addDeltas(deltas, []PosID{id}, g.res, 1)
			}
		}
	}
	if err := addGameCounts(ctx, tx, deltas); err != nil {
		return "", err
	}
	note := fmt.Sprintf("game statistics computed for %d stored games", len(games)-lost)
	if chosen > 0 {
		note += fmt.Sprintf(" (older books kept no move order: for %d games that transpositions allow to have reached their end by several lines, one was taken; import the games again to put their own)", chosen)
	}
	if lost > 0 {
		note += fmt.Sprintf("; %d games whose moves were removed count nowhere", lost)
	}
	return note, nil
}

// GameOrder orders the games through a position.
type GameOrder int

// Game orders.
const (
	// GamesRecent lists the most recently stored games first (an import
	// stores a file's games by numeric id, so for LittleGolem the most
	// recent games first).
	GamesRecent GameOrder = iota
	// GamesByID lists the games by source, then by id (numeric ids in
	// numeric order).
	GamesByID
)

// GamesQuery pages the games through a position.
type GamesQuery struct {
	Order  GameOrder
	Offset int // games skipped
	Limit  int // at most this many (default 50)
}

// GamesThrough lists the games that reached position id (whatever their
// orientation or move order), a page at a time, and how many there are in
// all.
func (bk *Book) GamesThrough(ctx context.Context, id PosID, q GamesQuery) ([]c6book.GameInfo, int64, error) {
	if q.Limit <= 0 {
		q.Limit = 50
	}
	var total int64
	err := bk.r.QueryRowContext(ctx, "SELECT games FROM position WHERE id = ?", int64(id)).Scan(&total)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, 0, fmt.Errorf("position %d: %w", id, ErrNotFound)
	}
	if err != nil {
		return nil, 0, err
	}
	order := "gp.game DESC"
	if q.Order == GamesByID {
		order = "g.source, length(g.ext_id), g.ext_id"
	}
	rows, err := bk.r.QueryContext(ctx, `
SELECT g.id, g.source, g.ext_id, g.nturns, g.result FROM game_pos gp JOIN game g ON g.id = gp.game
WHERE gp.pos = ? ORDER BY `+order+` LIMIT ? OFFSET ?`, int64(id), q.Limit, max(q.Offset, 0))
	if err != nil {
		return nil, 0, err
	}
	defer rows.Close()
	var out []c6book.GameInfo
	for rows.Next() {
		var g c6book.GameInfo
		var res int
		if err := rows.Scan(&g.ID, &g.Source, &g.ExtID, &g.Turns, &res); err != nil {
			return nil, 0, err
		}
		g.Result = gamepkg.Color(res)
		out = append(out, g)
	}
	return out, total, rows.Err()
}

// Game is one stored game with its turns.
type Game struct {
	c6book.GameInfo
	// Moves are the turns as played (the game's own orientation); empty
	// for a game stored before schema version 6 whose line could not be
	// rebuilt.
	Moves []gamepkg.Move
	// Written holds each turn's stones in the order the record wrote
	// them ("h12k11"; Moves[i] has them sorted). A game imported before
	// the book kept that order has them in board order.
	Written [][]gamepkg.Square
}

// Game returns the stored game with the book's id gid (c6book.GameInfo.ID).
func (bk *Book) Game(ctx context.Context, gid int64) (Game, error) {
	var g Game
	var res int
	var turns []byte
	err := bk.r.QueryRowContext(ctx, "SELECT id, source, ext_id, nturns, result, turns FROM game WHERE id = ?", gid).
		Scan(&g.ID, &g.Source, &g.ExtID, &g.Turns, &res, &turns)
	if errors.Is(err, sql.ErrNoRows) {
		return g, fmt.Errorf("game %d: %w", gid, ErrNotFound)
	}
	if err != nil {
		return g, err
	}
	g.Result = gamepkg.Color(res)
	if g.Written, err = decodeWritten(turns); err != nil {
		return g, fmt.Errorf("game %d: %w", gid, err)
	}
	g.Moves = make([]gamepkg.Move, len(g.Written))
	for i, sq := range g.Written {
		g.Moves[i] = gamepkg.NewMove(sq...)
	}
	return g, nil
}

// FindGame returns the book's id of the game stored under source and extID.
func (bk *Book) FindGame(ctx context.Context, source, extID string) (int64, error) {
	var gid int64
	err := bk.r.QueryRowContext(ctx, "SELECT id FROM game WHERE source = ? AND ext_id = ?", source, extID).Scan(&gid)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, fmt.Errorf("game %s %s: %w", source, extID, ErrNotFound)
	}
	return gid, err
}

// GameStatsOf returns the game counts of position id.
func (bk *Book) GameStatsOf(ctx context.Context, id PosID) (c6book.GameStats, error) {
	var g, b, w int64
	err := bk.r.QueryRowContext(ctx, "SELECT games, bwins, wwins FROM position WHERE id = ?", int64(id)).Scan(&g, &b, &w)
	if errors.Is(err, sql.ErrNoRows) {
		return c6book.GameStats{}, fmt.Errorf("position %d: %w", id, ErrNotFound)
	}
	return gameStats(g, b, w), err
}

// StableTurns is the line from the root to position id in the position's
// stable display orientation: the turns as played by the first stored game
// that reached it; else, for a position no game reached (a verifier's
// reply, a line added by hand), its first parent's stable line (parents
// by id) followed by the stored move, so that such a position shows in the
// orientation of the nearest position games reached, or of the empty
// board's canonical frame when there is none. It depends only on the
// book's contents, so a position opened from a list (search hits, the
// proved list, open positions) shows the same way every time, in the
// orientation its games were played in. Empty for the root; ErrNotFound
// when no stored line reaches the position.
func (bk *Book) StableTurns(ctx context.Context, id PosID) ([]gamepkg.Move, error) {
	var tail []gamepkg.Move // stored moves, each in its parent's canonical frame, last first
	var base []gamepkg.Move
	cur := id
	for steps := 0; ; steps++ {
		if cur == bk.root {
			base = []gamepkg.Move{}
			break
		}
		if steps > 4*bk.rules.Squares() {
			return nil, fmt.Errorf("position %d: no stored line from the root: %w", id, ErrNotFound)
		}
		var nstones int
		err := bk.r.QueryRowContext(ctx, "SELECT nstones FROM position WHERE id = ?", int64(cur)).Scan(&nstones)
		if errors.Is(err, sql.ErrNoRows) {
			return nil, fmt.Errorf("position %d: %w", cur, ErrNotFound)
		}
		if err != nil {
			return nil, err
		}
		var turns []byte
		err = bk.r.QueryRowContext(ctx, `SELECT g.turns FROM game_pos gp JOIN game g ON g.id = gp.game
WHERE gp.pos = ? AND g.turns IS NOT NULL ORDER BY gp.game LIMIT 1`, int64(cur)).Scan(&turns)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return nil, err
		}
		if ms, ok := bk.gamePrefix(turns, nstones); err == nil && ok {
			base = ms
			break
		}
		var parent, mv int64
		err = bk.r.QueryRowContext(ctx, "SELECT parent, move FROM edge WHERE child = ? ORDER BY parent LIMIT 1", int64(cur)).Scan(&parent, &mv)
		if errors.Is(err, sql.ErrNoRows) {
			return nil, fmt.Errorf("position %d: no stored line from the root: %w", id, ErrNotFound)
		}
		if err != nil {
			return nil, err
		}
		m, err := unpackMove(mv)
		if err != nil {
			return nil, err
		}
		tail = append(tail, m)
		cur = PosID(parent)
	}
	if len(tail) == 0 {
		return base, nil
	}
	b := bk.tmpl.Clone()
	for i, m := range base {
		if err := b.PlayPartial(m); err != nil {
			return nil, fmt.Errorf("position %d, stable line, turn %d: %w", id, i+1, err)
		}
	}
	out := append(make([]gamepkg.Move, 0, len(base)+len(tail)), base...)
	for i := len(tail) - 1; i >= 0; i-- {
		_, sym := b.CanonicalKey()
		m := FromCanonical(bk.rules, sym, tail[i])
		if err := b.PlayPartial(m); err != nil {
			return nil, fmt.Errorf("position %d, stable line, turn %d: %w", id, len(out)+1, err)
		}
		out = append(out, m)
	}
	return out, nil
}

// gamePrefix is the prefix of a stored game's turns that reaches a
// position with nstones stones (game_pos says the game reached it, and a
// game places the rules' stones every turn: the first turn's, then p).
func (bk *Book) gamePrefix(data []byte, nstones int) ([]gamepkg.Move, bool) {
	r := bk.rules
	if nstones < r.Q || (nstones-r.Q)%r.P != 0 {
		return nil, false
	}
	n := 1 + (nstones-r.Q)/r.P
	ms, err := decodeTurns(data)
	if err != nil || n > len(ms) {
		return nil, false
	}
	return ms[:n:n], true
}

// StableLine is StableTurns with the positions along the line (IDs[0] the
// root, IDs[i+1] reached by Turns[i]): open it on a board as is.
func (bk *Book) StableLine(ctx context.Context, id PosID) (Line, error) {
	ms, err := bk.StableTurns(ctx, id)
	if err != nil {
		return Line{}, err
	}
	line := Line{Turns: ms, IDs: []PosID{bk.root}}
	b := bk.tmpl.Clone()
	for i, m := range ms {
		if err := b.PlayPartial(m); err != nil {
			return Line{}, fmt.Errorf("position %d, stable line, turn %d: %w", id, i+1, err)
		}
		pid, _, err := bk.Locate(ctx, b)
		if err != nil {
			return Line{}, fmt.Errorf("position %d, stable line, turn %d: %w", id, i+1, err)
		}
		line.IDs = append(line.IDs, pid)
	}
	return line, nil
}

// ShortLine is a line for a list row: the last max turns numbered from
// the start ("… 7. k9l9 8. m10m11"), or all of them when they fit.
func ShortLine(r gamepkg.Rules, turns []gamepkg.Move, max int) string {
	var sb strings.Builder
	start := 0
	if max > 0 && len(turns) > max {
		start = len(turns) - max
		sb.WriteString("…")
	}
	for i := start; i < len(turns); i++ {
		if sb.Len() > 0 {
			sb.WriteByte(' ')
		}
		fmt.Fprintf(&sb, "%d. %s", i+1, gamepkg.MoveName(r, turns[i]))
	}
	return sb.String()
}

// OrientTurns maps a game's turns (any orientation, e.g. Game.Moves) into
// the orientation of board b, a position the game reaches: the game's
// position after its first turns then looks exactly as b does, and the
// rest of the game follows in that frame. A user on a line opens a game
// from the list of the games through it this way, keeping the orientation
// of the line. ok is false when the game does not reach b's position.
func OrientTurns(r gamepkg.Rules, turns []gamepkg.Move, b *board.Board) (out []gamepkg.Move, ok bool) {
	gsym, bsym, ok := orientation(r, turns, b)
	if !ok {
		return nil, false
	}
	out = make([]gamepkg.Move, len(turns))
	for i, m := range turns {
		out[i] = FromCanonical(r, bsym, ToCanonical(r, gsym, m))
	}
	return out, true
}

// OrientWritten is OrientTurns for a game's turns as its record wrote them
// (Game.Written): each turn's stones keep their order.
func OrientWritten(r gamepkg.Rules, written [][]gamepkg.Square, b *board.Board) (out [][]gamepkg.Square, ok bool) {
	turns := make([]gamepkg.Move, len(written))
	for i, sq := range written {
		turns[i] = gamepkg.NewMove(sq...)
	}
	gsym, bsym, ok := orientation(r, turns, b)
	if !ok {
		return nil, false
	}
	inv := gamepkg.InverseSymmetry(bsym)
	out = make([][]gamepkg.Square, len(written))
	for i, sq := range written {
		out[i] = make([]gamepkg.Square, len(sq))
		for k, s := range sq {
			out[i][k] = r.Transform(inv, r.Transform(gsym, s))
		}
	}
	return out, true
}

// WrittenText writes turns (Game.Written, OrientWritten) in LittleGolem
// notation, each turn's stones in their order, separated by spaces.
func WrittenText(r gamepkg.Rules, turns [][]gamepkg.Square) string {
	var sb strings.Builder
	for i, sq := range turns {
		if i > 0 {
			sb.WriteByte(' ')
		}
		sb.WriteString(writtenName(r, sq))
	}
	return sb.String()
}

// writtenName names one turn's stones in their order ("-" for none).
func writtenName(r gamepkg.Rules, sq []gamepkg.Square) string {
	if len(sq) == 0 {
		return gamepkg.MoveName(r, gamepkg.Move{})
	}
	var sb strings.Builder
	for _, s := range sq {
		sb.WriteString(gamepkg.SquareName(r, s))
	}
	return sb.String()
}

// orientation is the symmetry of the game's board (gsym) and of b (bsym)
// where the game's turns reach b's position (see OrientTurns).
func orientation(r gamepkg.Rules, turns []gamepkg.Move, b *board.Board) (gsym, bsym int, ok bool) {
	want := b.Stones(gamepkg.Black) + b.Stones(gamepkg.White)
	bkey, bsym := b.CanonicalKey()
	g, err := board.NewBoard(r)
	if err != nil {
		return 0, 0, false
	}
	gsym = -1
	for i := 0; i <= len(turns); i++ {
		n := g.Stones(gamepkg.Black) + g.Stones(gamepkg.White)
		if n == want && g.ToMove() == b.ToMove() {
			if k, s := g.CanonicalKey(); k == bkey {
				gsym = s
				break
			}
		}
		if n >= want || i == len(turns) {
			break
		}
		if err := g.PlayPartial(turns[i]); err != nil {
			return 0, 0, false
		}
	}
	return gsym, bsym, gsym >= 0
}

// checkGameStats reports the positions whose game counts differ from the
// games game_pos lists under them, and game_pos rows naming a missing
// position or game.
func (bk *Book) checkGameStats(ctx context.Context, problem func(string, ...any)) error {
	rows, err := bk.r.QueryContext(ctx, `
SELECT p.id, p.games, p.bwins, p.wwins, COALESCE(s.n, 0), COALESCE(s.b, 0), COALESCE(s.w, 0)
FROM position p LEFT JOIN (
	SELECT gp.pos, count(*) AS n, sum(g.result = 1) AS b, sum(g.result = 2) AS w
	FROM game_pos gp JOIN game g ON g.id = gp.game GROUP BY gp.pos) s ON s.pos = p.id
WHERE p.games <> COALESCE(s.n, 0) OR p.bwins <> COALESCE(s.b, 0) OR p.wwins <> COALESCE(s.w, 0)
ORDER BY p.id LIMIT 20`)
	if err != nil {
		return err
	}
	for rows.Next() {
		var id, g, b, w, n, nb, nw int64
		if err := rows.Scan(&id, &g, &b, &w, &n, &nb, &nw); err != nil {
			rows.Close()
			return err
		}
		problem("position %d counts %d games (Black won %d, White %d); the games through it are %d (%d, %d)", id, g, b, w, n, nb, nw)
	}
	if err := rows.Close(); err != nil {
		return err
	}
	rows, err = bk.r.QueryContext(ctx, `
SELECT gp.pos, gp.game FROM game_pos gp LEFT JOIN position p ON p.id = gp.pos LEFT JOIN game g ON g.id = gp.game
WHERE p.id IS NULL OR g.id IS NULL LIMIT 20`)
	if err != nil {
		return err
	}
	for rows.Next() {
		var pos, gid int64
		if err := rows.Scan(&pos, &gid); err != nil {
			rows.Close()
			return err
		}
		problem("game %d is listed through position %d, but one of them is missing", gid, pos)
	}
	return rows.Close()
}
