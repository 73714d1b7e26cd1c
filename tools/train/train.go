package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"

	"c6book/engine/board"
	gamepkg "c6book/engine/game"
	"c6book/engine/player"
)

// game is one LittleGolem game that ended in a six: its turns and winner.
type game struct {
	id     string
	turns  []gamepkg.Move
	winner gamepkg.Color
}

// config is the training set-up; the same config and games give the same
// weights, byte for byte.
type config struct {
	Seed    uint64
	Epochs  int
	Rate    float64 // SGD step size of the first epoch (halved every epoch)
	HoldOut int     // one game in HoldOut (by a hash of its id) is held out
	Width   int     // squares tried at each stone when ranking whole moves
}

func defaultConfig() config { return config{Seed: 1, Epochs: 3, Rate: 0.1, HoldOut: 10, Width: 10} }

// readGames reads the LittleGolem JSON ({gid: [turns]}, gzip'd or not) and
// keeps the games that replay legally and end in a six, sorted by id.
func readGames(path string) (games []game, skipped int, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	var rd io.Reader = f
	if strings.HasSuffix(path, ".gz") {
		z, err := gzip.NewReader(f)
		if err != nil {
			return nil, 0, fmt.Errorf("%s: %w", path, err)
		}
		defer z.Close()
		rd = z
	}
	var raw map[string][]string
	if err := json.NewDecoder(io.LimitReader(rd, 1<<30)).Decode(&raw); err != nil {
		return nil, 0, fmt.Errorf("%s: %w", path, err)
	}
	return parseGames(raw)
}

func parseGames(raw map[string][]string) (games []game, skipped int, err error) {
	r := gamepkg.Connect6()
	ids := make([]string, 0, len(raw))
	for id := range raw {
		ids = append(ids, id)
	}
	slices.SortFunc(ids, func(a, b string) int {
		x, ex := strconv.Atoi(a)
		y, ey := strconv.Atoi(b)
		if ex == nil && ey == nil && x != y {
			return x - y
		}
		return strings.Compare(a, b)
	})
	for _, id := range ids {
		turns, err := gamepkg.ParseTurns(r, strings.Join(raw[id], " "))
		if err != nil {
			skipped++
			continue
		}
		b, err := board.Replay(r, turns)
		if err != nil || b.Winner() == gamepkg.Empty {
			skipped++
			continue
		}
		games = append(games, game{id: id, turns: turns, winner: b.Winner()})
	}
	return games, skipped, nil
}

// heldOut reports whether game id is in the held-out set.
func heldOut(id string, n int) bool {
	h := fnv.New32a()
	h.Write([]byte(id))
	return h.Sum32()%uint32(n) == 0
}

// eachExample replays g and calls f before every two-stone turn of the
// winner (the board is f's until it returns).
func eachExample(g game, f func(b *board.Board, m gamepkg.Move)) {
	b := board.MustNewBoard(gamepkg.Connect6())
	for _, m := range g.turns {
		if b.ToMove() == g.winner && m.Len() == 2 && b.Turn() > 0 {
			f(b, m)
		}
		if err := b.Play(m); err != nil {
			return
		}
	}
}

// model is the float weights being learned.
type model [2][player.PatternCount]float64

// candidates returns the squares the model chooses among (those within
// distance 2 of a stone) and their patterns for c.
func candidates(b *board.Board, c gamepkg.Color) ([]gamepkg.Square, [][8]int) {
	sq := player.CandidateSquares(b)
	pats := make([][8]int, len(sq))
	for i, s := range sq {
		pats[i] = player.SquarePatterns(b, s, c)
	}
	return sq, pats
}

// step is one SGD step on a softmax over the candidates with the targets as
// the correct set (loss -log of their total probability).
func (m *model) step(pats [][8]int, target []bool, rate float64) {
	z := make([]float64, len(pats))
	hi := math.Inf(-1)
	for i, p := range pats {
		for j, idx := range p {
			z[i] += m[j/4][idx]
		}
		hi = max(hi, z[i])
	}
	var sum, sumT float64
	for i := range z {
		z[i] = math.Exp(z[i] - hi)
		sum += z[i]
		if target[i] {
			sumT += z[i]
		}
	}
	if sumT == 0 {
		return
	}
	for i, p := range pats {
		g := z[i] / sum
		if target[i] {
			g -= z[i] / sumT
		}
		if g == 0 {
			continue
		}
		for j, idx := range p {
			w := &m[j/4][idx]
			*w = min(max(*w-rate*g, -100), 100)
		}
	}
}

// train runs the SGD epochs over the training games' examples: for each
// winner's turn {a, b}, the board before it with both stones correct, and
// the board with one of them (drawn at random) placed, with the other one
// correct.
func train(games []game, cfg config, logf func(string, ...any)) *model {
	m := new(model)
	rng := rand.New(rand.NewPCG(cfg.Seed, 0x6c6))
	order := make([]int, len(games))
	for i := range order {
		order[i] = i
	}
	rate := cfg.Rate
	for ep := 0; ep < cfg.Epochs; ep++ {
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		n := 0
		for _, gi := range order {
			g := games[gi]
			eachExample(g, func(b *board.Board, mv gamepkg.Move) {
				c := b.ToMove()
				a, s := mv.At(0), mv.At(1)
				if rng.IntN(2) == 1 {
					a, s = s, a
				}
				sq, pats := candidates(b, c)
				tgt := make([]bool, len(sq))
				for i, x := range sq {
					tgt[i] = x == a || x == s
				}
				m.step(pats, tgt, rate)
				b.Place(a, c)
				sq, pats = candidates(b, c)
				tgt = tgt[:0]
				for _, x := range sq {
					tgt = append(tgt, x == s)
				}
				m.step(pats, tgt, rate)
				b.Remove(a)
				n++
			})
		}
		logf("epoch %d: %d turns, rate %.4f", ep+1, n, rate)
		rate /= 2
	}
	return m
}

// quantize rounds the model to the engine's weights.
func (m *model) quantize() *player.PatternWeights {
	w := new(player.PatternWeights)
	for role := range m {
		for i, v := range m[role] {
			w[role][i] = int16(max(min(math.Round(v*player.PatternScale), math.MaxInt16), math.MinInt16))
		}
	}
	return w
}

// agreement counts how often a ranking's first and first five hold the
// winner's choice.
type agreement struct {
	n, top1, top5 int
}

func (a agreement) String() string {
	if a.n == 0 {
		return "n=0"
	}
	return fmt.Sprintf("top-1 %.1f%% top-5 %.1f%% (n=%d)", 100*float64(a.top1)/float64(a.n), 100*float64(a.top5)/float64(a.n), a.n)
}

func (a *agreement) add(rank int) {
	a.n++
	if rank == 0 {
		a.top1++
	}
	if rank >= 0 && rank < 5 {
		a.top5++
	}
}

// report is the held-out agreement of the learned model and of the old
// pattern score: single stones (the first stone chosen is either of the
// turn's stones) and whole two-stone moves.
type report struct {
	games                int
	single, pair         agreement
	baseSingle, basePair agreement
}

// evaluate measures the weights w on the held-out games (at most max turns;
// 0: all), and the old ranking (player.RankSquares without weights, and
// player.AttackerCandidates for whole moves) on the same turns.
func evaluate(games []game, w *player.PatternWeights, maxTurns int, baseline bool) report {
	var rep report
	turns := 0
	for _, g := range games {
		if maxTurns > 0 && turns >= maxTurns {
			break
		}
		rep.games++
		eachExample(g, func(b *board.Board, mv gamepkg.Move) {
			if maxTurns > 0 && turns >= maxTurns {
				return
			}
			turns++
			rep.single.add(singleRank(player.RankSquares(b, 5, w), mv))
			rep.pair.add(moveRank(player.RankMoves(b, w, 5), mv))
			if baseline {
				rep.baseSingle.add(singleRank(player.RankSquares(b, 5, nil), mv))
				var ms []player.ScoredMove
				for _, m := range player.AttackerCandidates(b, 5) {
					ms = append(ms, player.ScoredMove{Move: m})
				}
				rep.basePair.add(moveRank(ms, mv))
			}
		})
	}
	return rep
}

func singleRank(sq []player.ScoredSquare, mv gamepkg.Move) int {
	for i, s := range sq {
		if mv.Contains(s.Square) {
			return i
		}
	}
	return -1
}

func moveRank(ms []player.ScoredMove, mv gamepkg.Move) int {
	for i, m := range ms {
		if m.Move == mv {
			return i
		}
	}
	return -1
}

// writeGo renders the weights as engine/player/patterns_gen.go.
func writeGo(w *player.PatternWeights, cfg config, trainGames int, rep report) []byte {
	var buf bytes.Buffer
	fmt.Fprintf(&buf, "// Code generated by go run ./tools/train; DO NOT EDIT.\n\n")
	fmt.Fprintf(&buf, "package player\n\n")
	fmt.Fprintf(&buf, "// The policy model's line-pattern weights (see patterns.go), learned from\n")
	fmt.Fprintf(&buf, "// %d LittleGolem games won by a six (seed %d, %d epochs, step %g, one game\n", trainGames, cfg.Seed, cfg.Epochs, cfg.Rate)
	fmt.Fprintf(&buf, "// in %d held out by its id). Held-out agreement with the winners' moves:\n", cfg.HoldOut)
	fmt.Fprintf(&buf, "// single stones %s; two-stone moves %s.\n", rep.single, rep.pair)
	fmt.Fprintf(&buf, "// Little-endian int16 pairs: own patterns, then opp patterns.\n")
	var data []byte
	for role := range w {
		for _, v := range w[role] {
			data = append(data, byte(uint16(v)), byte(uint16(v)>>8))
		}
	}
	writeConst(&buf, "patternWeightsData", data)
	return buf.Bytes()
}

// writeConst writes data as the string constant name, 32 bytes a line.
func writeConst(buf *bytes.Buffer, name string, data []byte) {
	fmt.Fprintf(buf, "const %s = \"\" +\n", name)
	const perLine = 32
	for i := 0; i < len(data); i += perLine {
		buf.WriteString("\t\"")
		for _, c := range data[i:min(i+perLine, len(data))] {
			fmt.Fprintf(buf, "\\x%02x", c)
		}
		buf.WriteString("\"")
		if i+perLine < len(data) {
			buf.WriteString(" +")
		}
		buf.WriteString("\n")
	}
	if len(data) == 0 {
		buf.WriteString("\t\"\"\n")
	}
}
