package board

import (
	"bufio"
	"os"
	"strings"
	"testing"

	"c6book/engine/game"
)

// lgPublicPositions replays the 120 public LittleGolem positions (attacker to
// move, a few turns before the win): real 19x19 middle-game positions.
func lgPublicPositions(tb testing.TB) []*Board {
	tb.Helper()
	f, err := os.Open(SharedDataFile(tb, "positions/littlegolem-public.tsv"))
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var out []*Board
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		cols := strings.Split(line, "\t")
		if len(cols) != 4 {
			tb.Fatalf("bad line %q", line)
		}
		b, err := ReplayText(game.Connect6(), cols[3])
		if err != nil {
			tb.Fatalf("position %s: %v", cols[0], err)
		}
		if b.ToMove().String() != cols[2] {
			tb.Fatalf("position %s: %s to move, file says %s", cols[0], b.ToMove(), cols[2])
		}
		out = append(out, b)
	}
	if err := sc.Err(); err != nil {
		tb.Fatal(err)
	}
	if len(out) < 100 {
		tb.Fatalf("only %d public positions", len(out))
	}
	return out
}

// benchNearEmpties lists the empty squares within distance 2 of a stone (where
// solvers place stones).
func benchNearEmpties(b *Board) []game.Square {
	r := b.Rules()
	var out []game.Square
	for s := game.Square(0); int(s) < r.Squares(); s++ {
		if b.At(s) != game.Empty {
			continue
		}
		x0, y0 := r.XY(s)
	near:
		for dy := -2; dy <= 2; dy++ {
			for dx := -2; dx <= 2; dx++ {
				if r.OnBoard(x0+dx, y0+dy) && b.At(r.Sq(x0+dx, y0+dy)) != game.Empty {
					out = append(out, s)
					break near
				}
			}
		}
	}
	return out
}

// benchPasses is how many times the stone-level benchmarks sweep one
// position's squares before moving to the next: a solver works on one board
// at a time, so its board stays in cache; cycling through 120 boards on every
// call would measure cache misses instead.
const benchPasses = 64

// Place + Remove of one stone, with the incremental window counts and
// threat-window sets updated both ways, on middle-game positions.
func BenchmarkBoardPlaceRemove(b *testing.B) {
	type job struct {
		b  *Board
		sq []game.Square
	}
	var jobs []job
	for _, p := range lgPublicPositions(b) {
		jobs = append(jobs, job{p, benchNearEmpties(p)})
	}
	b.ResetTimer()
	defer cpuMetric(b)()
	j, i, pass := 0, 0, 0
	for n := 0; n < b.N; n++ {
		jb := &jobs[j]
		s := jb.sq[i]
		c := jb.b.ToMove()
		jb.b.Place(s, c)
		jb.b.Remove(s)
		if i++; i == len(jb.sq) {
			i = 0
			if pass++; pass == benchPasses {
				pass = 0
				if j++; j == len(jobs) {
					j = 0
				}
			}
		}
	}
}

// Place + Threats of both sides + Remove: the per-node work of a threat
// solver.
func BenchmarkBoardPlaceThreatsRemove(b *testing.B) {
	ps := lgPublicPositions(b)
	type job struct {
		b  *Board
		sq []game.Square
	}
	var jobs []job
	for _, p := range ps {
		jobs = append(jobs, job{p, benchNearEmpties(p)})
	}
	b.ResetTimer()
	defer cpuMetric(b)()
	j, i, pass, sink := 0, 0, 0, 0
	for n := 0; n < b.N; n++ {
		jb := &jobs[j]
		s := jb.sq[i]
		c := jb.b.ToMove()
		jb.b.Place(s, c)
		sink += jb.b.Threats(c) + jb.b.Threats(c.Opp())
		jb.b.Remove(s)
		if i++; i == len(jb.sq) {
			i = 0
			if pass++; pass == benchPasses {
				pass = 0
				if j++; j == len(jobs) {
					j = 0
				}
			}
		}
	}
	_ = sink
}

// Threat counts of both players of a middle-game position.
func BenchmarkBoardThreats(b *testing.B) {
	ps := lgPublicPositions(b)
	b.ResetTimer()
	defer cpuMetric(b)()
	sink := 0
	for n := 0; n < b.N; n++ {
		p := ps[n%len(ps)]
		sink += p.Threats(game.Black) + p.Threats(game.White)
	}
	_ = sink
}

// Full threat evaluation of a middle-game position: both threat counts, both
// players' threat windows and critical defences (what `c6 threats` prints).
func BenchmarkBoardThreatEvaluation(b *testing.B) {
	ps := lgPublicPositions(b)
	b.ReportAllocs()
	b.ResetTimer()
	defer cpuMetric(b)()
	sink := 0
	for n := 0; n < b.N; n++ {
		p := ps[n%len(ps)]
		for _, c := range []game.Color{game.Black, game.White} {
			sink += p.Threats(c)
			normal, relaxed := p.CriticalDefences(c)
			sink += len(normal) + len(relaxed)
		}
	}
	_ = sink
}

// ThreatWindows of both players (allocates the exported description).
func BenchmarkBoardThreatWindows(b *testing.B) {
	ps := lgPublicPositions(b)
	b.ReportAllocs()
	b.ResetTimer()
	defer cpuMetric(b)()
	sink := 0
	for n := 0; n < b.N; n++ {
		p := ps[n%len(ps)]
		sink += len(p.ThreatWindows(game.Black)) + len(p.ThreatWindows(game.White))
	}
	_ = sink
}

// Counting from scratch: every stone of a middle-game position placed on an
// empty board (what the incremental update avoids).
func BenchmarkBoardRebuild(b *testing.B) {
	ps := lgPublicPositions(b)
	e := MustNewBoard(game.Connect6())
	b.ResetTimer()
	defer cpuMetric(b)()
	sink := 0
	for n := 0; n < b.N; n++ {
		p := ps[n%len(ps)]
		for s := range p.Rules().Squares() {
			c := p.At(game.Square(s))
			if c != game.Empty {
				e.Place(game.Square(s), c)
			}
		}
		sink += e.Threats(game.Black) + e.Threats(game.White)
		for s := range p.Rules().Squares() {
			c := p.At(game.Square(s))
			if c != game.Empty {
				e.Remove(game.Square(s))
			}
		}
	}
	_ = sink
}

// Threat-move generation (double and single threats) for the side to move.
func BenchmarkBoardThreatMoves(b *testing.B) {
	ps := lgPublicPositions(b)
	b.ReportAllocs()
	b.ResetTimer()
	defer cpuMetric(b)()
	sink := 0
	for n := 0; n < b.N; n++ {
		p := ps[n%len(ps)]
		sink += len(p.ThreatMoves(p.ToMove(), 1, FreeNear))
	}
	_ = sink
}

// Double-threat moves only (the VCDT stage).
func BenchmarkBoardThreatMovesDouble(b *testing.B) {
	ps := lgPublicPositions(b)
	b.ReportAllocs()
	b.ResetTimer()
	defer cpuMetric(b)()
	sink := 0
	for n := 0; n < b.N; n++ {
		p := ps[n%len(ps)]
		sink += len(p.ThreatMoves(p.ToMove(), 2, FreeNear))
	}
	_ = sink
}

func BenchmarkBoardCanonicalKey(b *testing.B) {
	ps := lgPublicPositions(b)
	b.ResetTimer()
	defer cpuMetric(b)()
	var sink uint64
	for n := 0; n < b.N; n++ {
		k, _ := ps[n%len(ps)].CanonicalKey()
		sink ^= k
	}
	_ = sink
}

// Play + Undo of a full turn with rule checking.
func BenchmarkBoardPlayUndo(b *testing.B) {
	ps := lgPublicPositions(b)
	type job struct {
		b  *Board
		mv []game.Move
	}
	var jobs []job
	for _, p := range ps {
		sq := benchNearEmpties(p)
		var mv []game.Move
		for i := 0; i+1 < len(sq); i += 2 {
			mv = append(mv, game.NewMove(sq[i], sq[i+1]))
		}
		jobs = append(jobs, job{p, mv})
	}
	b.ResetTimer()
	defer cpuMetric(b)()
	j, i, pass := 0, 0, 0
	for n := 0; n < b.N; n++ {
		jb := &jobs[j]
		if err := jb.b.Play(jb.mv[i]); err == nil {
			_ = jb.b.Undo()
		}
		if i++; i == len(jb.mv) {
			i = 0
			if pass++; pass == benchPasses {
				pass = 0
				if j++; j == len(jobs) {
					j = 0
				}
			}
		}
	}
}

// NewBoard builds the geometry (windows, Zobrist table, symmetries) of the
// rules each time; Clone shares it.
func BenchmarkBoardNew(b *testing.B) {
	b.ReportAllocs()
	b.ResetTimer()
	defer cpuMetric(b)()
	for n := 0; n < b.N; n++ {
		if _, err := NewBoard(game.Connect6()); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkBoardCloneEmpty(b *testing.B) {
	e := MustNewBoard(game.Connect6())
	b.ReportAllocs()
	b.ResetTimer()
	defer cpuMetric(b)()
	for n := 0; n < b.N; n++ {
		_ = e.Clone()
	}
}
