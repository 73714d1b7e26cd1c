package player

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"sync"

	"c6book/engine/board"
	"c6book/engine/game"
)

// The games' opening moves (issue 23): the moves the LittleGolem games
// played at their most played openings, with how the decided games went.
// A one-ply pattern score or a four-turn search over it does not tell the
// strong opening moves from the weak ones (on Mickey Mouse, j10 i9k9, the
// search's first choice was j8j9, won by Black in 17% of 1,461 decided
// games, and the moves strong players choose there were not among its
// candidates); thousands of games do. tools/train --book writes the table
// (gamebook_gen.go) from the games file; Play and through it the
// auto-pilot's PlayerCandidates try the moves whose record is good for the
// mover first.

// GameZ is the confidence of the games' win rates: a move's lower bound
// is the Wilson interval's at GameZ standard deviations (one-sided 95%).
const GameZ = 1.645

// GameBookLCB is the least lower bound of the mover's win rate (GameZ)
// for Play to try a games' move before its own.
const GameBookLCB = 0.5

// GameMove is a move the games played at a position, with its record: the
// decided games (ended by a six) through it and how many the mover won.
type GameMove struct {
	Move  game.Move
	Games int
	Wins  int
}

// LCB is the lower bound of the mover's win rate in the move's decided
// games (Wilson, GameZ).
func (g GameMove) LCB() float64 { return WilsonLower(int64(g.Wins), int64(g.Games), GameZ) }

// WilsonLower is the lower bound of the Wilson score interval of a win
// rate of wins out of n at z standard deviations (0 when n is 0).
func WilsonLower(wins, n int64, z float64) float64 {
	if n <= 0 {
		return 0
	}
	nf := float64(n)
	p := float64(wins) / nf
	z2 := z * z
	centre := p + z2/(2*nf)
	spread := z * math.Sqrt(p*(1-p)/nf+z2/(4*nf*nf))
	return max(0, (centre-spread)/(1+z2/nf))
}

// GameMoves returns the games' moves at b, in b's orientation, best first
// by LCB (then by games): nil unless the rules are Connect6 and the
// position (up to symmetry, with the side to move) is in the table. Moves
// that are one another's image under a symmetry of the position are one
// entry. Each is legal at b.
func GameMoves(b *board.Board) []GameMove {
	if b.Rules() != game.Connect6() {
		return nil
	}
	book, err := gameBook()
	if err != nil {
		return nil // the generated table is checked by the tests
	}
	key, sym := b.CanonicalKey()
	stored := book[key]
	if len(stored) == 0 {
		return nil
	}
	inv := game.InverseSymmetry(sym)
	out := make([]GameMove, 0, len(stored))
	for _, g := range stored {
		m := b.Rules().TransformMove(inv, g.Move)
		if b.Check(m, false) != nil {
			continue // a hash collision: not this position's move
		}
		out = append(out, GameMove{Move: m, Games: g.Games, Wins: g.Wins})
	}
	sort.SliceStable(out, func(i, j int) bool {
		li, lj := out[i].LCB(), out[j].LCB()
		if li != lj {
			return li > lj
		}
		return out[i].Games > out[j].Games
	})
	return out
}

// gameBook decodes gamebook_gen.go once.
var gameBook = sync.OnceValues(func() (map[uint64][]GameMove, error) {
	return DecodeGameBook(gameBookData)
})

// GameBookBuilder counts the games' moves at the positions of their first
// turns, up to symmetry: the generator of gamebook_gen.go (tools/train
// --book). The same games, added in any order, encode to the same bytes.
type GameBookBuilder struct {
	r            game.Rules
	empty        *board.Board // cloned for each game (a new board builds its geometry)
	maxTurns     int
	minGames     int
	minMoveGames int
	pos          map[uint64]map[uint64]*builderMove
}

// builderMove is a move's record at a position: the representative (in the
// canonical frame of the position, the least of the moves symmetric to it
// there), keyed by the canonical key of the position after it.
type builderMove struct {
	move        game.Move
	games, wins int
}

// NewGameBookBuilder keeps the positions reached within the first maxTurns
// turns (the empty board's turn not counted: its move is the centre) by at
// least minGames decided games, with their moves played in at least
// minMoveGames of them.
func NewGameBookBuilder(maxTurns, minGames, minMoveGames int) *GameBookBuilder {
	return &GameBookBuilder{r: game.Connect6(), empty: board.MustNewBoard(game.Connect6()), maxTurns: maxTurns, minGames: max(minGames, 1), minMoveGames: max(minMoveGames, 1),
		pos: map[uint64]map[uint64]*builderMove{}}
}

// Add counts a decided Connect6 game: its turns from the empty board and
// its winner. A game whose turns do not replay is an error and counts for
// nothing.
func (gb *GameBookBuilder) Add(turns []game.Move, winner game.Color) error {
	if winner != game.Black && winner != game.White {
		return fmt.Errorf("game book: winner %v", winner)
	}
	b := gb.empty.Clone()
	type rec struct {
		key, child uint64
		m          game.Move
		mover      game.Color
	}
	var recs []rec
	for i, m := range turns {
		if i > gb.maxTurns {
			break
		}
		if i > 0 {
			key, sym := b.CanonicalKey()
			recs = append(recs, rec{key: key, m: gb.r.TransformMove(sym, m), mover: b.ToMove()})
		}
		if err := b.Play(m); err != nil {
			return fmt.Errorf("game book: turn %d: %w", i+1, err)
		}
		if i > 0 {
			recs[len(recs)-1].child, _ = b.CanonicalKey()
		}
	}
	for _, r := range recs {
		ms := gb.pos[r.key]
		if ms == nil {
			ms = map[uint64]*builderMove{}
			gb.pos[r.key] = ms
		}
		bm := ms[r.child]
		if bm == nil {
			bm = &builderMove{move: r.m}
			ms[r.child] = bm
		} else if game.MoveLess(r.m, bm.move) {
			bm.move = r.m
		}
		bm.games++
		if winner == r.mover {
			bm.wins++
		}
	}
	return nil
}

// Positions is the number of positions Encode keeps.
func (gb *GameBookBuilder) Positions() int { return len(gb.kept()) }

// kept lists the positions with enough games, by key, each with its moves
// played often enough, most played first (ties by stones).
func (gb *GameBookBuilder) kept() []gameBookEntry {
	var out []gameBookEntry
	for key, ms := range gb.pos {
		total := 0
		var moves []GameMove
		for _, bm := range ms {
			total += bm.games
			if bm.games >= gb.minMoveGames {
				moves = append(moves, GameMove{Move: bm.move, Games: bm.games, Wins: bm.wins})
			}
		}
		if total < gb.minGames || len(moves) == 0 {
			continue
		}
		slices.SortFunc(moves, func(x, y GameMove) int {
			if x.Games != y.Games {
				return y.Games - x.Games
			}
			if game.MoveLess(x.Move, y.Move) {
				return -1
			}
			return 1
		})
		out = append(out, gameBookEntry{key, moves})
	}
	slices.SortFunc(out, func(x, y gameBookEntry) int {
		if x.key < y.key {
			return -1
		}
		return 1
	})
	return out
}

type gameBookEntry struct {
	key   uint64
	moves []GameMove
}

// Encode writes the table: for each position by key, its key (8 bytes,
// little-endian) and its number of moves, then for each move its first
// stone, its second stone + 1 (0: none), its games and its wins, all as
// unsigned varints.
func (gb *GameBookBuilder) Encode() []byte {
	var out []byte
	for _, e := range gb.kept() {
		out = binary.LittleEndian.AppendUint64(out, e.key)
		out = binary.AppendUvarint(out, uint64(len(e.moves)))
		for _, g := range e.moves {
			out = binary.AppendUvarint(out, uint64(g.Move.At(0)))
			second := uint64(0)
			if g.Move.Len() > 1 {
				second = uint64(g.Move.At(1)) + 1
			}
			out = binary.AppendUvarint(out, second)
			out = binary.AppendUvarint(out, uint64(g.Games))
			out = binary.AppendUvarint(out, uint64(g.Wins))
		}
	}
	return out
}

var errGameBook = errors.New("game book: truncated or malformed table")

// DecodeGameBook reads a table Encode wrote: the moves of each position by
// its canonical key, in the canonical frame.
func DecodeGameBook(data string) (map[uint64][]GameMove, error) {
	out := map[uint64][]GameMove{}
	r := game.Connect6()
	p := []byte(data)
	next := func() (uint64, bool) {
		v, n := binary.Uvarint(p)
		if n <= 0 {
			return 0, false
		}
		p = p[n:]
		return v, true
	}
	for len(p) > 0 {
		if len(p) < 8 {
			return nil, errGameBook
		}
		key := binary.LittleEndian.Uint64(p)
		p = p[8:]
		n, ok := next()
		if !ok || n == 0 || n > uint64(r.Squares()*r.Squares()) {
			return nil, errGameBook
		}
		if _, dup := out[key]; dup {
			return nil, fmt.Errorf("game book: position %016x twice", key)
		}
		moves := make([]GameMove, 0, n)
		for range n {
			var v [4]uint64
			for i := range v {
				if v[i], ok = next(); !ok {
					return nil, errGameBook
				}
			}
			if v[0] >= uint64(r.Squares()) || v[1] > uint64(r.Squares()) || v[3] > v[2] || v[2] > math.MaxInt32 {
				return nil, errGameBook
			}
			m := game.NewMove(game.Square(v[0]))
			if v[1] > 0 {
				m = game.NewMove(game.Square(v[0]), game.Square(v[1]-1))
			}
			moves = append(moves, GameMove{Move: m, Games: int(v[2]), Wins: int(v[3])})
		}
		out[key] = moves
	}
	return out, nil
}
