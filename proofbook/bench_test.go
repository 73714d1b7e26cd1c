package proofbook

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"c6book"
	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/engine/threat"
	"c6book/engine/verify"
	"c6book/internal/cputime"
	"c6book/proofcheck"
)

// The shared LittleGolem games (read-only); benchmarks skip without them.
const sharedGames = "../../shared/data/littlegolem-connect6-games.json.gz"

func loadShared(b *testing.B, n int) ([]string, map[string][]string) {
	f, err := os.Open(sharedGames)
	if err != nil {
		b.Skip("shared games file not available:", err)
	}
	defer f.Close()
	ids, games, err := readGamesFile(f)
	if err != nil {
		b.Fatal(err)
	}
	if n > 0 && n < len(ids) {
		ids = ids[:n]
	}
	return ids, games
}

// benchGames is the number of games to import: C6_BENCH_GAMES, default all.
func benchGames() int {
	n, _ := strconv.Atoi(os.Getenv("C6_BENCH_GAMES"))
	return n
}

// BenchmarkImportGames imports the shared games into a fresh book and
// reports the time and the size on disk.
func BenchmarkImportGames(b *testing.B) {
	ids, games := loadShared(b, benchGames())
	ctx := context.Background()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		dir := b.TempDir()
		bk, err := Create(ctx, filepath.Join(dir, "bench.c6book"), game.Connect6())
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		start, cpu0 := time.Now(), cputime.ProcessOrWall()
		st, err := bk.importGames(ctx, ids, games, ImportOptions{})
		if err != nil {
			b.Fatal(err)
		}
		el, cpu := time.Since(start), cputime.ProcessOrWall()-cpu0
		b.StopTimer()
		s, err := bk.Stats(ctx)
		if err != nil {
			b.Fatal(err)
		}
		bk.Close()
		fi, _ := os.Stat(filepath.Join(dir, "bench.c6book"))
		b.ReportMetric(float64(st.Games), "games")
		b.ReportMetric(float64(s.Positions), "positions")
		b.ReportMetric(float64(fi.Size())/1e6, "MB")
		b.ReportMetric(el.Seconds(), "s/import")
		b.ReportMetric(cpu.Seconds(), "cpu-s/import")
		b.StartTimer()
	}
}

// benchBook opens the book at C6_BENCH_BOOK, building it first when the
// file does not exist: all shared games (timed), then comments and
// verdicts on a fixed sample of positions so that every query has work.
func benchBook(b *testing.B) *Book {
	ctx := context.Background()
	path := os.Getenv("C6_BENCH_BOOK")
	if path == "" {
		path = filepath.Join(os.TempDir(), "c6book-bench.c6book")
	}
	if _, err := os.Stat(path); err == nil {
		bk, err := Open(ctx, path)
		if err != nil {
			b.Fatal(err)
		}
		return bk
	}
	ids, games := loadShared(b, benchGames())
	bk, err := Create(ctx, path, game.Connect6())
	if err != nil {
		b.Fatal(err)
	}
	start, cpu0 := time.Now(), cputime.ProcessOrWall()
	st, err := bk.importGames(ctx, ids, games, ImportOptions{})
	if err != nil {
		b.Fatal(err)
	}
	el, cpu := time.Since(start), cputime.ProcessOrWall()-cpu0
	s, _ := bk.Stats(ctx)
	fmt.Fprintf(os.Stderr, "built %s: %d games, %d positions, %d moves in %s (CPU %s); %.1f MB\n", path, st.Games, s.Positions, s.Edges,
		el.Round(time.Millisecond), cpu.Round(time.Millisecond), float64(s.FileBytes)/1e6)
	// Annotations and proofs on a sample.
	rows, err := bk.r.QueryContext(ctx, "SELECT id, to_move FROM position WHERE id % 97 = 0 AND nstones > 6 AND winner = 0 ORDER BY id LIMIT 3000")
	if err != nil {
		b.Fatal(err)
	}
	type pos struct {
		id PosID
		tm game.Color
	}
	var sample []pos
	for rows.Next() {
		var p pos
		rows.Scan(&p.id, &p.tm)
		sample = append(sample, p)
	}
	rows.Close()
	words := []string{"sharp", "quiet", "trap", "joseki", "mistake", "strong", "Zhang", "threat", "defence", "classic"}
	for i, p := range sample {
		if i%3 == 0 {
			if err := bk.SetComment(ctx, p.id, words[i%len(words)]+" line "+strconv.Itoa(i)+" "+words[(i/7)%len(words)]); err != nil {
				b.Fatal(err)
			}
		}
		if i%5 == 0 {
			bd, err := bk.Board(ctx, p.id)
			if err != nil {
				b.Fatal(err)
			}
			v := c6book.Verdict{Attacker: p.tm.Opp(), Status: c6book.StatusProved, Order: 2, Lambda: 2, Engine: "bench"}
			if i%10 == 0 {
				// Open, with two unsolved replies.
				v.Status = c6book.StatusOpen
				var sq []game.Square
				for s := game.Square(0); len(sq) < 4; s++ {
					if bd.At(s) == game.Empty {
						sq = append(sq, s)
					}
				}
				v.Unsolved = []c6book.Unsolved{{Move: game.NewMove(sq[0], sq[1])}, {Move: game.NewMove(sq[2], sq[3])}}
			}
			if _, err := bk.StoreVerdict(ctx, p.id, v); err != nil {
				b.Fatal(err)
			}
		}
	}
	return bk
}

// BenchmarkBookQueries times the queries the UI makes, on the book of all
// shared games (see benchBook).
func BenchmarkBookQueries(b *testing.B) {
	ctx := context.Background()
	bk := benchBook(b)
	defer bk.Close()
	root, _ := bk.Root(ctx)
	var deep, wide PosID
	bk.r.QueryRowContext(ctx, "SELECT id FROM position WHERE nstones > 60 ORDER BY id LIMIT 1").Scan(&deep)
	bk.r.QueryRowContext(ctx, "SELECT parent FROM edge GROUP BY parent ORDER BY count(*) DESC LIMIT 1").Scan(&wide)
	var widest int
	bk.r.QueryRowContext(ctx, "SELECT count(*) FROM edge WHERE parent = ?", int64(wide)).Scan(&widest)
	fmt.Fprintf(os.Stderr, "widest position %d has %d children; deep position %d\n", wide, widest, deep)
	deepBoard, err := bk.Board(ctx, deep)
	if err != nil {
		b.Fatal(err)
	}
	run := func(name string, fn func() error) {
		b.Run(name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if err := fn(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	run("Children/root", func() error { _, err := bk.Children(ctx, root); return err })
	run("Children/widest", func() error { _, err := bk.Children(ctx, wide); return err })
	run("Position", func() error { _, err := bk.Position(ctx, deep); return err })
	run("Locate", func() error { _, _, err := bk.Locate(ctx, deepBoard); return err })
	run("PathsFromRoot/deep", func() error {
		ls, err := bk.PathsFromRoot(ctx, deep, 1)
		if err == nil && len(ls) == 0 {
			err = ErrNotFound
		}
		return err
	})
	run("Proved/100", func() error { _, err := bk.Proved(ctx, game.Black, 1, 100); return err })
	run("OpenByPN/100", func() error { _, err := bk.OpenByPN(ctx, game.White, 100); return err })
	run("Search", func() error { _, err := bk.Search(ctx, "sharp zhang", 100); return err })
	run("Next/root", func() error { _, err := bk.Next(ctx, root, game.Black); return err })

	// Game statistics: the replies of the most played opening position
	// (sorted by games, with their counts), the games through it (a page,
	// most recent first, and by id, which sorts them all), and the stable
	// line of a deep position (its first game's prefix) with and without
	// the positions along it.
	var main PosID
	var mainGames int64
	bk.r.QueryRowContext(ctx, "SELECT id, games FROM position WHERE nstones = 3 ORDER BY games DESC LIMIT 1").Scan(&main, &mainGames)
	fmt.Fprintf(os.Stderr, "most played 3-stone position %d: %d games\n", main, mainGames)
	run("Children/main", func() error { _, err := bk.Children(ctx, main); return err })
	run("GamesThrough/main/recent50", func() error {
		_, _, err := bk.GamesThrough(ctx, main, GamesQuery{Limit: 50})
		return err
	})
	run("GamesThrough/main/byID50", func() error {
		_, _, err := bk.GamesThrough(ctx, main, GamesQuery{Limit: 50, Order: GamesByID})
		return err
	})
	run("GamesThrough/root/recent50", func() error {
		_, _, err := bk.GamesThrough(ctx, root, GamesQuery{Limit: 50, Offset: 1000})
		return err
	})
	run("StableTurns/deep", func() error { _, err := bk.StableTurns(ctx, deep); return err })
	run("StableLine/deep", func() error { _, err := bk.StableLine(ctx, deep); return err })
	run("Game", func() error { _, err := bk.Game(ctx, 1000); return err })
}

// BenchmarkConnect623Certificate verifies Black's winning first move of
// Connect(6,2,3) in one verifier call (λ3, 200,000 nodes a solver call),
// stores it in a book, and reports the certificate's size and the time
// book check takes to re-check it from the certificate alone.
func BenchmarkConnect623Certificate(b *testing.B) {
	ctx := context.Background()
	r := game.Rules{M: 19, N: 19, K: 6, P: 2, Q: 3}
	turns, err := game.ParseTurns(r, "i9k9j10")
	if err != nil {
		b.Fatal(err)
	}
	board, err := board.Replay(r, turns)
	if err != nil {
		b.Fatal(err)
	}
	v, err := verify.Verify(ctx, board, verify.VerifyOptions{Lambda: 3, Workers: 2, Limits: threat.Limits{MaxNodes: 200000}}, nil)
	if err != nil {
		b.Fatal(err)
	}
	if v.Status != verify.StatusProved {
		b.Fatalf("not proved: %s", v.Status)
	}
	bk := newBook(b, r)
	l, err := bk.AddLine(ctx, turns)
	if err != nil {
		b.Fatal(err)
	}
	_, sym := board.CanonicalKey()
	sv := c6book.FromEngine(r, sym, v, 3)
	data, err := sv.Cert.MarshalBinary()
	if err != nil {
		b.Fatal(err)
	}
	if _, err := bk.StoreVerdict(ctx, l.IDs[1], sv); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		rep, err := bk.Check(ctx)
		if err != nil || !rep.OK() || rep.Proofs < 2 {
			b.Fatalf("check: %+v %v", rep, err)
		}
	}
	b.ReportMetric(float64(len(data)), "cert-bytes")
	b.ReportMetric(float64(len(v.Covered)), "covered-moves")
}

// BenchmarkStoreLargeVerdict stores a large real verdict: the λ3 verdict
// of Mickey Mouse's j10 i9k9 i7j9 (White to move), verified once outside
// the timer at C6_BIG_NODES nodes a solver call (default 2000; at 200,000
// it holds 1,186 covered moves with 242,498 strategy nodes and 134 items;
// C6_BIG_TURNS names another position, White to move). C6_BIG_CACHE
// names a file that keeps the verdict (written when missing, read when
// present; with its certificate in .cert and the position in .pos) so
// that runs at a large budget verify once. Each iteration
// stores it into a fresh book: the certificate's re-check, the items
// added as positions, the statuses propagated.
func BenchmarkStoreLargeVerdict(b *testing.B) {
	ctx := context.Background()
	r := game.Rules{M: 19, N: 19, K: 6, P: 2, Q: 1}
	text := "j10 i9k9 i7j9"
	if t := os.Getenv("C6_BIG_TURNS"); t != "" {
		text = t
	}
	turns, err := game.ParseTurns(r, text)
	if err != nil {
		b.Fatal(err)
	}
	sv := largeVerdict(b, r, turns)
	items := len(sv.Items())
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		bk := newBook(b, r)
		l, err := bk.AddLine(ctx, turns)
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if _, err := bk.StoreVerdict(ctx, l.IDs[len(l.IDs)-1], sv); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		bk.Close()
	}
	b.ReportMetric(float64(items), "items")
	b.ReportMetric(float64(len(sv.Covered)), "covered")
}

// largeVerdict is BenchmarkStoreLargeVerdict's verdict (see there), in the
// position's canonical frame.
func largeVerdict(b *testing.B, r game.Rules, turns []game.Move) c6book.Verdict {
	ctx := context.Background()
	board, err := board.Replay(r, turns)
	if err != nil {
		b.Fatal(err)
	}
	cache := os.Getenv("C6_BIG_CACHE")
	if cache != "" {
		if data, err := os.ReadFile(cache); err == nil {
			var sv c6book.Verdict
			if err := json.Unmarshal(data, &sv); err != nil {
				b.Fatal(err)
			}
			cert, err := os.ReadFile(cache + ".cert")
			if err != nil {
				b.Fatal(err)
			}
			sv.Cert = new(proofcheck.Cert)
			if err := sv.Cert.UnmarshalBinary(cert); err != nil {
				b.Fatal(err)
			}
			return sv
		}
	}
	nodes := int64(2000)
	if s := os.Getenv("C6_BIG_NODES"); s != "" {
		if nodes, err = strconv.ParseInt(s, 10, 64); err != nil {
			b.Fatal(err)
		}
	}
	_, sym := board.CanonicalKey()
	sv, err := c6book.VerifyBoard(ctx, board, nil, sym, verify.VerifyOptions{Lambda: 3, Workers: 2, Limits: threat.Limits{MaxNodes: nodes}}, nil)
	if err != nil {
		b.Fatal(err)
	}
	if cache != "" {
		data, err := json.Marshal(sv)
		if err != nil {
			b.Fatal(err)
		}
		cert, err := sv.Cert.MarshalBinary()
		if err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(cache+".cert", cert, 0o644); err != nil {
			b.Fatal(err)
		}
		// The position in the certificate's frame, for proofcheck's
		// BenchmarkCheckLargeVerdict.
		var stones [3][]game.Square
		for c := game.Black; c <= game.White; c++ {
			for _, s := range board.StoneList(c) {
				stones[c] = append(stones[c], r.Transform(sym, s))
			}
		}
		pos, err := json.Marshal(map[string]any{"black": stones[game.Black], "white": stones[game.White], "defender": board.ToMove(), "tol": sv.Tolerance})
		if err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(cache+".pos", pos, 0o644); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(cache, data, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	return sv
}

// BenchmarkStoreManyItems stores a verdict of 4,000 unsolved replies
// (the defender's two-stone moves nearest the centre of Mickey Mouse's
// j10 i9k9 i7j9), without a certificate: the book's side of storing a
// large verdict (its JSON, the 4,000 items added as positions, the
// statuses propagated), without proofcheck's re-check, which
// BenchmarkStoreLargeVerdict includes.
func BenchmarkStoreManyItems(b *testing.B) {
	ctx := context.Background()
	r := game.Rules{M: 19, N: 19, K: 6, P: 2, Q: 1}
	turns, err := game.ParseTurns(r, "j10 i9k9 i7j9")
	if err != nil {
		b.Fatal(err)
	}
	const items = 4000
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		bk := newBook(b, r)
		l, err := bk.AddLine(ctx, turns)
		if err != nil {
			b.Fatal(err)
		}
		id := l.IDs[len(l.IDs)-1]
		cb, err := bk.Board(ctx, id) // the canonical frame of the verdict's moves
		if err != nil {
			b.Fatal(err)
		}
		var empty []game.Square
		for d := 0; d <= 9 && len(empty) < 120; d++ {
			for s := game.Square(0); int(s) < r.Squares(); s++ {
				x, y := int(s)%r.M-9, int(s)/r.M-9
				if max(abs(x), abs(y)) == d && cb.At(s) == game.Empty {
					empty = append(empty, s)
				}
			}
		}
		v := c6book.Verdict{Attacker: game.Black, Status: c6book.StatusOpen, Order: 2, Lambda: 2, Engine: "bench"}
		for a := 0; a < len(empty) && len(v.Unsolved) < items; a++ {
			for c := a + 1; c < len(empty) && len(v.Unsolved) < items; c++ {
				v.Unsolved = append(v.Unsolved, c6book.Unsolved{Move: game.NewMove(empty[a], empty[c]), Reason: threat.ReasonBudget})
			}
		}
		b.StartTimer()
		if _, err := bk.StoreVerdict(ctx, id, v); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		bk.Close()
	}
	b.ReportMetric(items, "items")
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
