package proofbook

import (
	"c6book/engine/board"
	"c6book/engine/game"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"c6book"
)

// recount counts, from the raw games and the engine alone (no book code),
// the games through every position: keyed by canonical key, each game once
// per position it reaches, by result (its last position's winner).
type recountEntry struct {
	games, bwins, wwins int64
	ids                 map[string]bool
}

func recount(t *testing.T, r game.Rules, games map[string][]string) map[uint64]*recountEntry {
	t.Helper()
	out := map[uint64]*recountEntry{}
	for id, turns := range games {
		ms, err := game.ParseTurns(r, strings.Join(turns, " "))
		if err != nil {
			continue
		}
		b := board.MustNewBoard(r)
		keys := []uint64{}
		k, _ := b.CanonicalKey()
		keys = append(keys, k)
		ok := true
		for _, m := range ms {
			if err := b.Play(m); err != nil {
				ok = false
				break
			}
			k, _ := b.CanonicalKey()
			keys = append(keys, k)
		}
		if !ok {
			continue
		}
		seen := map[uint64]bool{}
		for _, k := range keys {
			if seen[k] {
				continue
			}
			seen[k] = true
			e := out[k]
			if e == nil {
				e = &recountEntry{ids: map[string]bool{}}
				out[k] = e
			}
			e.games++
			e.ids[id] = true
			switch b.Winner() {
			case game.Black:
				e.bwins++
			case game.White:
				e.wwins++
			}
		}
	}
	return out
}

// The counts stored at import agree with a recount from the raw games on
// every position of a sample, and so does the list of games through each.
func TestGameStatsAgainstRecount(t *testing.T) {
	ctx := context.Background()
	r := game.Connect6()
	bk := newBook(t, r)
	_, games := synthGames(11, 400, 14)
	// Some finished games, so that results count: Black's six on a column
	// (and its mirror image), White's six on a row.
	games["b1"] = strings.Fields("j10 a1b1 j11j12 a2b2 j13j14 a3b3 j15j16")
	games["b2"] = strings.Fields("j10 s1r1 j11j12 s2r2 j13j14 s3r3 j15j16")
	games["w1"] = strings.Fields("j10 a1b1 s19r19 c1d1 s18r18 e1f1")
	if _, err := bk.importMap(ctx, games, ImportOptions{Batch: 37}); err != nil {
		t.Fatal(err)
	}
	want := recount(t, r, games)
	keys := make([]uint64, 0, len(want))
	for k := range want {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i] < keys[j] })
	checked, multi := 0, 0
	for i, k := range keys {
		e := want[k]
		if i%7 != 0 && e.games < 2 { // a sample, with every shared position
			continue
		}
		var id int64
		if err := bk.r.QueryRowContext(ctx, "SELECT id FROM position WHERE key = ?", int64(k)).Scan(&id); err != nil {
			t.Fatalf("key %#x: %v", k, err)
		}
		gs, err := bk.GameStatsOf(ctx, PosID(id))
		if err != nil {
			t.Fatal(err)
		}
		if gs.Games != e.games || gs.BlackWins != e.bwins || gs.WhiteWins != e.wwins {
			t.Fatalf("position %d: stored %+v, recount %d games (B %d, W %d)", id, gs, e.games, e.bwins, e.wwins)
		}
		list, total, err := bk.GamesThrough(ctx, PosID(id), GamesQuery{Limit: 1000, Order: GamesByID})
		if err != nil || total != e.games || int64(len(list)) != e.games {
			t.Fatalf("games through %d: %d listed, total %d, want %d (%v)", id, len(list), total, e.games, err)
		}
		for _, g := range list {
			if !e.ids[g.ExtID] {
				t.Fatalf("game %s listed through position %d, which it never reached", g.ExtID, id)
			}
		}
		checked++
		if e.games > 1 {
			multi++
		}
	}
	if checked < 50 || multi < 10 {
		t.Fatalf("sample too small: %d positions, %d with several games", checked, multi)
	}
	root := want[keyOf(t, r, "")]
	wantGames(t, bk, "", root.games, root.bwins, root.wwins)
	if root.bwins < 2 || root.wwins < 1 || root.games < 390 {
		t.Fatalf("the finished games did not count: %+v", root)
	}
}

func keyOf(t *testing.T, r game.Rules, line string) uint64 {
	t.Helper()
	b, err := board.ReplayText(r, line)
	if err != nil {
		t.Fatal(err)
	}
	k, _ := b.CanonicalKey()
	return k
}

// Hand-built transpositions and symmetric games: a game counts once per
// position it reaches, whatever its move order and orientation; importing
// again changes nothing; replies come most played first.
func TestGameStatsTranspositionsAndSymmetry(t *testing.T) {
	ctx := context.Background()
	r := game.Connect6()
	bk := newBook(t, r)
	games := map[string][]string{
		// Black wins on column j.
		"1": strings.Fields("j10 a1b1 j11j12 a2b2 j13j14 a3b3 j15j16"),
		// The same game with White's two turns swapped: it meets game 1
		// again after turn 4.
		"2": strings.Fields("j10 a2b2 j11j12 a1b1 j13j14 a3b3 j15j16"),
		// Game 1 mirrored left-right (a↔s): the same positions.
		"3": strings.Fields("j10 s1r1 j11j12 s2r2 j13j14 s3r3 j15j16"),
		// Game 1's opening, then unfinished.
		"4": strings.Fields("j10 a1b1 k10k11"),
	}
	st, err := bk.importMap(ctx, games, ImportOptions{})
	if err != nil || st.Games != 4 {
		t.Fatalf("import: %+v %v", st, err)
	}
	wantGames(t, bk, "", 4, 3, 0)
	wantGames(t, bk, "j10", 4, 3, 0)
	wantGames(t, bk, "j10 a1b1", 3, 2, 0) // games 1, 3 (mirrored) and 4
	wantGames(t, bk, "j10 s1r1", 3, 2, 0) // the same position
	wantGames(t, bk, "j10 a2b2", 1, 1, 0) // game 2
	wantGames(t, bk, "j10 a1b1 j11j12", 2, 2, 0)
	wantGames(t, bk, "j10 a1b1 j11j12 a2b2", 3, 3, 0) // game 2 joins
	wantGames(t, bk, "j10 a2b2 j11j12 a1b1", 3, 3, 0)
	wantGames(t, bk, "j10 a1b1 j11j12 a2b2 j13j14 a3b3 j15j16", 3, 3, 0)
	wantGames(t, bk, "j10 a1b1 k10k11", 1, 0, 0)

	// Replies of j10, most played first, with their counts.
	j10, sym := locate(t, bk, "j10")
	kids, err := bk.Children(ctx, j10)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, k := range kids {
		got = append(got, fmt.Sprintf("%s:%d/%d", game.MoveName(r, FromCanonical(r, sym, k.Move)), k.Games.Games, k.Games.BlackWins))
	}
	// a1b1 and s1r1 are one reply up to symmetry (named in j10's frame,
	// where a2b2 may be one of its images).
	if len(got) != 2 || !strings.HasSuffix(got[0], ":3/2") || !strings.HasSuffix(got[1], ":1/1") {
		t.Fatalf("replies of j10: %v", got)
	}
	if rate, ok := kids[0].Games.BlackRate(); !ok || rate != 1 {
		t.Fatalf("Black's rate: %v %v", rate, ok)
	}

	// The games through a position, most recent first, paged.
	mid, _ := locate(t, bk, "j10 a2b2 j11j12 a1b1")
	list, total, err := bk.GamesThrough(ctx, mid, GamesQuery{Limit: 2})
	if err != nil || total != 3 || len(list) != 2 || list[0].ExtID != "3" || list[1].ExtID != "2" {
		t.Fatalf("first page: %+v %d %v", list, total, err)
	}
	list, _, err = bk.GamesThrough(ctx, mid, GamesQuery{Limit: 2, Offset: 2})
	if err != nil || len(list) != 1 || list[0].ExtID != "1" || list[0].Result != game.Black || list[0].Turns != 7 {
		t.Fatalf("second page: %+v %v", list, err)
	}
	// One game's turns, as played.
	g, err := bk.Game(ctx, list[0].ID)
	if err != nil || game.FormatTurns(r, g.Moves) != game.FormatTurns(r, turns(t, r, strings.Join(games["1"], " "))) {
		t.Fatalf("game 1: %+v %v", g, err)
	}
	if gid, err := bk.FindGame(ctx, "littlegolem", "3"); err != nil {
		t.Fatal(err)
	} else if g, _ := bk.Game(ctx, gid); game.FormatTurns(r, g.Moves) != game.FormatTurns(r, turns(t, r, strings.Join(games["3"], " "))) {
		t.Fatalf("game 3 as played: %s", game.FormatTurns(r, g.Moves))
	}

	// Importing the games again, or more of the same, changes nothing.
	before := bookState(t, bk)
	st, err = bk.importMap(ctx, games, ImportOptions{})
	if err != nil || st.Games != 0 || st.Already != 4 {
		t.Fatalf("re-import: %+v %v", st, err)
	}
	if bookState(t, bk) != before {
		t.Fatal("re-importing the games changed the book")
	}
	// Game 4 mirrored reaches its end (counts there); with k10k11 kept
	// unmirrored it reaches another position.
	more := map[string][]string{"5": strings.Fields("j10 s1r1 i10i11"), "6": strings.Fields("j10 s1r1 k10k11")}
	st, err = bk.importMap(ctx, more, ImportOptions{})
	if err != nil || st.Games != 2 {
		t.Fatalf("games 5 and 6: %+v %v", st, err)
	}
	wantGames(t, bk, "j10 a1b1 k10k11", 2, 0, 0)
	wantGames(t, bk, "j10 s1r1 k10k11", 1, 0, 0)
	wantGames(t, bk, "j10 a1b1", 5, 2, 0)
	mustCheck(t, bk)

	// Check finds counts that do not match the games through a position.
	if err := bk.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, "UPDATE position SET bwins = bwins + 1 WHERE id = ?", int64(mid))
		return err
	}); err != nil {
		t.Fatal(err)
	}
	rep, err := bk.Check(ctx)
	if err != nil || rep.OK() || !strings.Contains(strings.Join(rep.Problems, "\n"), fmt.Sprintf("position %d counts 3 games (Black won 4", mid)) {
		t.Fatalf("check after tampering with the counts: %v %v", rep.Problems, err)
	}
}

// A stored position opened from a list is shown in one stable orientation:
// the first game's that reached it, else the first stored path's; search
// hits and ranked lists carry that line and the position's real status.
func TestStableLine(t *testing.T) {
	ctx := context.Background()
	r := game.Connect6()
	bk := newBook(t, r)
	games := map[string][]string{
		"1": strings.Fields("j10 a1b1 j11j12 a2b2 j13j14 a3b3 j15j16"), // Black wins
		"3": strings.Fields("j10 s1r1 j11j12 s2r2 j13j14 s3r3 j15j16"), // game 1 mirrored
		"7": strings.Fields("j10 s1r1 h8h9"),                           // only in this orientation
	}
	if _, err := bk.importMap(ctx, games, ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	norm := func(s string) string { return game.FormatTurns(r, turns(t, r, s)) }
	stable := func(line string) string {
		t.Helper()
		id, _ := locate(t, bk, line)
		ms, err := bk.StableTurns(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		l, err := bk.StableLine(ctx, id)
		if err != nil || len(l.IDs) != len(ms)+1 || l.IDs[len(l.IDs)-1] != id || game.FormatTurns(r, l.Turns) != game.FormatTurns(r, ms) {
			t.Fatalf("stable line of %q: %+v %v", line, l, err)
		}
		return game.FormatTurns(r, ms)
	}
	// Entered in game 3's orientation, shown in game 1's (stored first).
	if got := stable("j10 s1r1 j11j12 s2r2"); got != norm("j10 a1b1 j11j12 a2b2") {
		t.Fatalf("stable line: %q", got)
	}
	if got := stable("j10 a1b1 l8l9"); got != norm("j10 s1r1 h8h9") {
		t.Fatalf("stable line of game 7's end, entered mirrored: %q", got)
	}
	// A move no game played, added on the mirrored line, shows in the
	// orientation of game 7, the nearest position games reached.
	mb, err := board.ReplayText(r, "j10 a1b1 l8l9")
	if err != nil {
		t.Fatal(err)
	}
	reply, err := bk.PlayFrom(ctx, mb, turns(t, r, "k11k12")[0])
	if err != nil {
		t.Fatal(err)
	}
	if ms, err := bk.StableTurns(ctx, reply); err != nil || game.FormatTurns(r, ms) != norm("j10 s1r1 h8h9 i11i12") {
		t.Fatalf("stable line of a reply below game 7: %s %v", game.FormatTurns(r, ms), err)
	}
	// Without games: the first stored path, in the root's canonical frame,
	// the same whatever orientation added it.
	add(t, bk, "k10 k11l11 m10m11")
	id, _ := locate(t, bk, "k10 k11l11 m10m11")
	first := stable("k10 k11l11 m10m11")
	paths, err := bk.PathsFromRoot(ctx, id, 1)
	if err != nil || game.FormatTurns(r, paths[0].Turns) != first {
		t.Fatalf("stable line without games %q, first path %v %v", first, paths, err)
	}
	if b, err := board.ReplayText(r, first); err != nil {
		t.Fatal(err)
	} else if got, _, err := bk.Locate(ctx, b); err != nil || got != id {
		t.Fatalf("the stable line %q leads to %d, want %d", first, got, id)
	}
	// Search hits: the stable line, the stones and the real status.
	hitPos, _ := locate(t, bk, "j10 s1r1 j11j12")
	if err := bk.SetComment(ctx, hitPos, "the j-file attack"); err != nil {
		t.Fatal(err)
	}
	if err := bk.SetDisproved(ctx, hitPos, game.White, true); err != nil {
		t.Fatal(err)
	}
	hits, err := bk.Search(ctx, "attack", 10)
	if err != nil || len(hits) != 1 {
		t.Fatalf("search: %+v %v", hits, err)
	}
	h := hits[0]
	if h.ID != hitPos || h.Stones != 5 || h.ToMove != game.White || h.Proof(game.White).Status != c6book.StatusDisproved ||
		game.FormatTurns(r, h.Turns) != norm("j10 a1b1 j11j12") {
		t.Fatalf("hit: %+v (%s)", h, game.FormatTurns(r, h.Turns))
	}
	// The proved list (game 1's end is proved for Black at order 0).
	// (and so is the position before, where Black makes six at once).
	pr, err := bk.Proved(ctx, game.Black, 0, 10)
	if err != nil || len(pr) != 2 || pr[1].Stones != 13 || game.FormatTurns(r, pr[1].Turns) != norm(strings.Join(games["1"], " ")) || pr[1].ToMove != game.White {
		t.Fatalf("proved list: %+v %v", pr, err)
	}
	pr = pr[1:]
	if s := ShortLine(r, pr[0].Turns, 2); s != "… 6. a3b3 7. j15j16" {
		t.Fatalf("short line %q", s)
	}
	if s := ShortLine(r, pr[0].Turns[:2], 3); s != "1. j10 2. a1b1" {
		t.Fatalf("short line %q", s)
	}
}

// A cancelled import stops, and what it reports (its stats and its final
// progress report) is exactly what the book holds; the progress reports
// only count committed games, never going back.
func TestImportCancelReportsWhatWasStored(t *testing.T) {
	r := game.Connect6()
	bk := newBook(t, r)
	ids, games := synthGames(21, 600, 20)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	commits := 0
	var reports []ImportProgress
	done := make(chan struct{})
	st, err := bk.importMap(ctx, games, ImportOptions{Batch: 40,
		OnCommit: func([]string) {
			if commits++; commits == 3 {
				cancel()
			}
		},
		ProgressEvery: time.Nanosecond,
		OnProgress: func(p ImportProgress) {
			reports = append(reports, p) // one delivering goroutine at a time
			if p.Final {
				close(done)
			}
		}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled import: %+v %v", st, err)
	}
	select {
	case <-done:
	default:
		t.Fatal("no final report before ImportGames returned")
	}
	var n, gp, counted int64
	bk.r.QueryRow("SELECT count(*) FROM game").Scan(&n)
	bk.r.QueryRow("SELECT count(*) FROM game_pos").Scan(&gp)
	bk.r.QueryRow("SELECT COALESCE(sum(games), 0) FROM position").Scan(&counted)
	if int64(st.Games) != n || n == 0 || n >= int64(len(ids)) {
		t.Fatalf("stats say %d games stored, the book holds %d of %d", st.Games, n, len(ids))
	}
	if gp != counted {
		t.Fatalf("game_pos has %d rows, the counts sum to %d", gp, counted)
	}
	last := reports[len(reports)-1]
	if !last.Final || last.Stored != st.Games || last.Total != len(ids) || !errors.Is(last.Err, context.Canceled) || last.Done >= len(ids) {
		t.Fatalf("final report %+v, stats %+v", last, st)
	}
	for i := 1; i < len(reports); i++ {
		if reports[i].Stored < reports[i-1].Stored || reports[i].Done < reports[i-1].Done {
			t.Fatalf("progress went back: %+v then %+v", reports[i-1], reports[i])
		}
	}
	// The rest comes with the next import; the counts are then those of
	// an import in one go.
	st2, err := bk.importMap(context.Background(), games, ImportOptions{})
	if err != nil || st2.Already != st.Games || st.Games+st2.Games+len(st2.Skipped) != len(ids) {
		t.Fatalf("resumed import: %+v %v (first %d)", st2, err, st.Games)
	}
	one := newBook(t, r)
	if _, err := one.importMap(context.Background(), games, ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	counts := func(b *Book) string {
		rows, err := b.r.Query("SELECT key, games, bwins, wwins FROM position ORDER BY key")
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var sb strings.Builder
		for rows.Next() {
			var k, g, bw, ww int64
			rows.Scan(&k, &g, &bw, &ww)
			fmt.Fprintf(&sb, "%d %d %d %d\n", k, g, bw, ww)
		}
		return sb.String()
	}
	if counts(bk) != counts(one) {
		t.Fatal("the counts after a cancelled and resumed import differ from one import's")
	}
}

// Next works below the position it is given: from an open position it
// follows that position's own replies, even when the most-proving position
// of the whole tree lies elsewhere (a workbench must pass the position the
// user is on, not the root).
func TestNextWorksBelowFrom(t *testing.T) {
	ctx := context.Background()
	bk := newBook(t, game.Connect6())
	B := game.Black
	P2 := add(t, bk, p2Line)
	A := add(t, bk, p2Line+" "+aMove)
	A2 := add(t, bk, p2Line+" h8h9")
	_, v, blocks := twoThreatVerdict(t, bk, p2Line+" "+aMove)
	store(t, bk, A, v)
	store(t, bk, A2, c6book.Verdict{Attacker: B, Status: c6book.StatusOpen, Lambda: 2, AllUnsolved: true, Engine: "test"})
	line, err := bk.Next(ctx, P2, B)
	if err != nil || line.IDs[len(line.IDs)-1] != A2 {
		t.Fatalf("next from P2: %v %v, want A2 %d", line.IDs, err, A2)
	}
	line, err = bk.Next(ctx, A, B)
	if err != nil {
		t.Fatal(err)
	}
	if len(line.IDs) != 2 || line.IDs[0] != A || len(line.Turns) != 1 {
		t.Fatalf("next from A: %v, want A then one of its replies", line.IDs)
	}
	// The turn is in A's canonical frame: played on A's board it leads to
	// the listed reply, one of the blocks.
	b, err := bk.Board(ctx, A)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Play(line.Turns[0]); err != nil {
		t.Fatal(err)
	}
	if id, _, err := bk.Locate(ctx, b); err != nil || id != line.IDs[1] {
		t.Fatalf("the turn of next leads to %d, listed %d (%v)", id, line.IDs[1], err)
	}
	found := false
	for _, m := range blocks {
		c, _ := locate(t, bk, p2Line+" "+aMove+" "+game.MoveName(bk.Rules(), m))
		found = found || c == line.IDs[1]
	}
	if !found {
		t.Fatal("next from A left A's replies")
	}
}

// An upgrade rebuilds the statistics of the games an older book stored
// (without their turns): where transpositions leave a choice the counts
// may follow another line, and importing the games again puts each game's
// own line, after which the counts agree with a recount from the games.
func TestRebuiltGamesRepairedByReimport(t *testing.T) {
	ctx := context.Background()
	r := game.Connect6()
	bk := newBook(t, r)
	_, games := synthGames(31, 150, 10)
	games["t1"] = strings.Fields("j10 a1b1 j11j12 a2b2 j13j14 a3b3 j15j16")
	games["t2"] = strings.Fields("j10 a2b2 j11j12 a1b1 j13j14 a3b3 j15j16") // transposes into t1
	if _, err := bk.importMap(ctx, games, ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	want := recount(t, r, games)
	// What a book upgraded from schema 5 holds: games without turns or
	// statistics, then the upgrade's rebuild.
	var note string
	if err := bk.write(ctx, func(tx *sql.Tx) error {
		for _, q := range []string{"DELETE FROM game_pos", "UPDATE position SET games = 0, bwins = 0, wwins = 0", "UPDATE game SET turns = NULL"} {
			if _, err := tx.ExecContext(ctx, q); err != nil {
				return err
			}
		}
		var err error
		note, err = backfillGames(ctx, tx, bk.path)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(note, "import the games again") {
		t.Fatalf("upgrade note: %q", note)
	}
	wantGames(t, bk, "", int64(len(games)), want[keyOf(t, r, "")].bwins, want[keyOf(t, r, "")].wwins)
	a, b := want[keyOf(t, r, "j10 a1b1")].games, want[keyOf(t, r, "j10 a2b2")].games
	ga, _ := bk.GameStatsOf(ctx, mustLocate(t, bk, "j10 a1b1"))
	gb, _ := bk.GameStatsOf(ctx, mustLocate(t, bk, "j10 a2b2"))
	if ga.Games+gb.Games != a+b || ga.Games == a {
		t.Fatalf("rebuilt counts: a1b1 %d (own %d), a2b2 %d (own %d): the rebuild should have taken one line for both", ga.Games, a, gb.Games, b)
	}
	st, err := bk.importMap(ctx, games, ImportOptions{})
	if err != nil || st.Games != 0 || st.Repaired < 1 || st.Already != len(games) {
		t.Fatalf("import again: %+v %v", st, err)
	}
	for k, e := range want {
		var id int64
		if err := bk.r.QueryRowContext(ctx, "SELECT id FROM position WHERE key = ?", int64(k)).Scan(&id); err != nil {
			t.Fatal(err)
		}
		gs, err := bk.GameStatsOf(ctx, PosID(id))
		if err != nil || gs.Games != e.games || gs.BlackWins != e.bwins || gs.WhiteWins != e.wwins {
			t.Fatalf("after the repair, position %d: %+v, recount %+v (%v)", id, gs, *e, err)
		}
	}
	var gp, counted int64
	bk.r.QueryRow("SELECT count(*) FROM game_pos").Scan(&gp)
	bk.r.QueryRow("SELECT sum(games) FROM position").Scan(&counted)
	if gp != counted {
		t.Fatalf("after the repair game_pos has %d rows, the counts sum to %d", gp, counted)
	}
	g, err := bk.Game(ctx, mustFindGame(t, bk, "t2"))
	if err != nil || game.FormatTurns(r, g.Moves) != game.FormatTurns(r, turns(t, r, strings.Join(games["t2"], " "))) {
		t.Fatalf("t2's own turns: %+v %v", g, err)
	}
	before := bookState(t, bk)
	if st, err := bk.importMap(ctx, games, ImportOptions{}); err != nil || st.Repaired != 0 || st.Already != len(games) {
		t.Fatalf("third import: %+v %v", st, err)
	}
	if bookState(t, bk) != before {
		t.Fatal("importing the repaired games again changed the book")
	}
	mustCheck(t, bk)
}

func mustLocate(t *testing.T, bk *Book, line string) PosID {
	t.Helper()
	id, _ := locate(t, bk, line)
	return id
}

func mustFindGame(t *testing.T, bk *Book, ext string) int64 {
	t.Helper()
	gid, err := bk.FindGame(context.Background(), "littlegolem", ext)
	if err != nil {
		t.Fatal(err)
	}
	return gid
}
