package board

import (
	"errors"
	"strings"
	"testing"

	"c6book/engine/game"
)

func TestRulesValidateAndParse(t *testing.T) {
	good := []string{"19,19,6,2,1", "7,7,4,2,1", "25,25,6,2,1", "26,26,6,2,1", "9,7,5,3,2", " 8, 8 ,4,1,1 "}
	for _, s := range good {
		r, err := game.ParseRules(s)
		if err != nil {
			t.Fatalf("ParseRules(%q): %v", s, err)
		}
		back, err := game.ParseRules(r.String())
		if err != nil || back != r {
			t.Fatalf("round trip of %q: %v %v", s, back, err)
		}
	}
	if game.Connect6().String() != "19,19,6,2,1" {
		t.Fatalf("Connect6() = %s", game.Connect6())
	}
	bad := map[string]string{
		"":              "want m,n,k,p,q",
		"19,19,6,2":     "want m,n,k,p,q",
		"19,19,6,2,x":   `"x" is not a number`,
		"27,27,6,2,1":   "out of range",
		"0,19,6,2,1":    "out of range",
		"19,19,1,1,1":   "at least 2",
		"5,5,6,2,1":     "does not fit",
		"19,19,6,0,1":   "p=0",
		"19,19,6,5,1":   "p=5",
		"19,19,6,2,0":   "q=0",
		"19,19,3,3,1":   "less than k",
		"19,19,6,2,1,1": "want m,n,k,p,q",
	}
	for s, want := range bad {
		_, err := game.ParseRules(s)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseRules(%q) = %v, want an error containing %q", s, err, want)
		}
	}
	if _, err := NewBoard(game.Rules{M: 30, N: 30, K: 6, P: 2, Q: 1}); err == nil {
		t.Error("NewBoard accepted a 30x30 board")
	}
	if r := game.Connect6(); r.StonesForTurn(0) != 1 || r.StonesForTurn(1) != 2 || r.StonesForTurn(7) != 2 || r.ThreatLevel() != 4 {
		t.Error("Connect6 turn sizes or threat level wrong")
	}
}

func TestParseColor(t *testing.T) {
	for s, want := range map[string]game.Color{"B": game.Black, "b": game.Black, "black": game.Black, " White ": game.White, "w": game.White} {
		if c, err := game.ParseColor(s); err != nil || c != want {
			t.Errorf("ParseColor(%q) = %v, %v", s, c, err)
		}
	}
	if _, err := game.ParseColor("x"); err == nil {
		t.Error("ParseColor(x) succeeded")
	}
	if game.Black.Opp() != game.White || game.White.Opp() != game.Black || game.Black.String() != "B" || game.White.String() != "W" || game.Empty.String() != "." {
		t.Error("colour basics")
	}
}

// playTurnsT plays turns one by one and fails the test on an error.
func playTurnsT(t *testing.T, b *Board, turns string) {
	t.Helper()
	ms, err := game.ParseTurns(b.Rules(), turns)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range ms {
		if err := b.Play(m); err != nil {
			t.Fatalf("%s: %v", game.MoveName(b.Rules(), m), err)
		}
	}
}

// Illegal moves give a *MoveError wrapping the reason, with a message that
// names the turn and the square, and leave the board untouched.
func TestIllegalMoves(t *testing.T) {
	r := game.Connect6()
	cases := []struct {
		name   string
		before string
		move   game.Move
		want   error
		msg    []string
	}{
		{"occupied", "j10", game.NewMove(r.Sq(9, 9), r.Sq(10, 10)), ErrOccupied, []string{"turn 2", "occupied", "j10"}},
		{"occupied second stone", "j10 k10k11", game.NewMove(r.Sq(0, 0), r.Sq(10, 10)), ErrOccupied, []string{"turn 3", "k11"}},
		{"off board", "", game.NewMove(game.Square(361)), ErrOffBoard, []string{"turn 1", "off the board"}},
		{"negative square", "j10", game.NewMove(game.Square(-5), r.Sq(0, 0)), ErrOffBoard, []string{"off the board"}},
		{"two stones on the first turn", "", game.NewMove(r.Sq(9, 9), r.Sq(9, 10)), ErrStoneCount, []string{"turn 1", "2 stones", "places 1"}},
		{"one stone on a later turn", "j10", game.NewMove(r.Sq(0, 0)), ErrStoneCount, []string{"turn 2", "1 stones", "places 2"}},
		{"three stones", "j10", game.NewMove(r.Sq(0, 0), r.Sq(1, 1), r.Sq(2, 2)), ErrStoneCount, []string{"3 stones"}},
		{"null move", "j10", game.Move{}, ErrStoneCount, []string{"0 stones"}},
		{"duplicate", "j10", game.NewMove(r.Sq(3, 3), r.Sq(3, 3)), ErrDuplicate, []string{"twice", "d4"}},
		{"game over", "j10 a1a2 j11j12 b1b2 j13j14 c1c2 j15j9", game.NewMove(r.Sq(5, 5), r.Sq(6, 6)), ErrGameOver, []string{"over", "B has won"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b := MustNewBoard(r)
			playTurnsT(t, b, tc.before)
			before := boardSnapshot(b)
			err := b.Play(tc.move)
			if !errors.Is(err, tc.want) {
				t.Fatalf("Play = %v, want %v", err, tc.want)
			}
			var me *MoveError
			if !errors.As(err, &me) || me.Move != tc.move || me.Turn != b.Turn() {
				t.Fatalf("error %v is not a *MoveError for this move and turn", err)
			}
			for _, w := range tc.msg {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("message %q does not mention %q", err, w)
				}
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("message %q is not one line", err)
			}
			if d := boardSnapshot(b).diff(before); d != "" {
				t.Fatalf("illegal move changed the board: %s", d)
			}
			if err2 := b.Check(tc.move, false); !errors.Is(err2, tc.want) {
				t.Fatalf("Check = %v, Play = %v", err2, err)
			}
		})
	}
}

// Replay and ReplayText name the offending turn.
func TestReplayErrors(t *testing.T) {
	r := game.Connect6()
	_, err := ReplayText(r, "j10 j11k10 j10a1")
	if !errors.Is(err, ErrOccupied) || !strings.Contains(err.Error(), "turn 3") || !strings.Contains(err.Error(), "a1j10") {
		t.Fatalf("ReplayText occupied: %v", err)
	}
	for text, want := range map[string]string{
		"j10 t10a1": "off the 19x19 board",
		"j10 j":     "missing row",
		"j10 j0a1":  "off the",
		"j10 %1":    "column must be a letter",
		"j10 j11k":  "missing row",
	} {
		_, err := ReplayText(r, text)
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "turn 2") {
			t.Errorf("ReplayText(%q) = %v, want turn 2 and %q", text, err, want)
		}
	}
	if _, err := Replay(game.Rules{}, nil); err == nil {
		t.Error("Replay with invalid rules succeeded")
	}
}

// k or more in a row wins, in every direction; an overline counts; a win
// may take fewer stones than the turn allows.
func TestWinDetection(t *testing.T) {
	r := game.Connect6()
	cases := []struct {
		name, turns string
		winner      game.Color
	}{
		{"horizontal", "j10 a1a3 k10l10 b1b3 m10n10 c1c3 o10e19", game.Black},
		{"vertical", "j10 a1a3 j11j12 b1b3 j13j14 c1c3 j15s19", game.Black},
		{"diagonal", "j10 a1a3 k11l12 b1b3 m13n14 c1c3 o15s1", game.Black},
		{"anti-diagonal", "j10 a1a3 k9l8 b1b3 m7n6 c1c3 o5s1", game.Black},
		{"white wins", "j10 a1b1 s19s18 c1d1 s17s16 e1f1", game.White},
		{"overline of seven", "j10 a1a3 k10l10 b1b3 n10o10 c1c3 p10m10", game.Black},
		{"overline joining two groups", "a10 a1a3 b10c10 b1b3 e10f10 c1c3 g10h10 d1d3 d10", game.Black},
		{"winning single stone", "j10 a1a3 k10l10 b1b3 m10n10 c1c3 o10", game.Black},
		{"five is not six", "j10 a1a3 k10l10 b1b3 m10n10 c1c3", game.Empty},
		{"six with a gap is not six", "j10 a1a3 k10l10 b1b3 m10n10 c1c3 p10q10", game.Empty},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b := MustNewBoard(r)
			ms, err := game.ParseTurns(r, tc.turns)
			if err != nil {
				t.Fatal(err)
			}
			for i, m := range ms {
				if w := b.Winner(); w != game.Empty {
					t.Fatalf("winner %s before turn %d", w, i+1)
				}
				if err := b.Play(m); err != nil {
					t.Fatalf("turn %d %s: %v", i+1, game.MoveName(r, m), err)
				}
			}
			if w := b.Winner(); w != tc.winner {
				t.Fatalf("Winner = %s, want %s\n%s", w, tc.winner, b.Diagram())
			}
			if tc.winner != game.Empty && b.Threats(tc.winner) != r.P+1 {
				t.Fatalf("a finished row must count as p+1 threats")
			}
			if err := b.Undo(); err != nil || b.Winner() != game.Empty {
				t.Fatalf("Undo of the winning turn: winner %s, %v", b.Winner(), err)
			}
		})
	}
	// A short turn that does not win is refused, one that wins is played.
	b := MustNewBoard(r)
	playTurnsT(t, b, "j10 a1a3 k10l10 b1b3 m10n10 c1c3")
	if err := b.Play(parseMoveT(t, r, "p10")); !errors.Is(err, ErrStoneCount) {
		t.Fatalf("short non-winning turn: %v", err)
	}
}

// On a board with a single empty square, a one-stone turn is legal even when
// the rules ask for two (the game ends in a draw or a win).
func TestShortTurnFillsBoard(t *testing.T) {
	r := game.Rules{M: 4, N: 4, K: 4, P: 2, Q: 1}
	// Fill 15 squares without four in a row, leave d4.
	rows := []string{"BBWW", "WWBB", "BBWW", "WWB."}
	var black, white []game.Square
	for i, row := range rows {
		y := r.N - 1 - i
		for x, ch := range row {
			switch ch {
			case 'B':
				black = append(black, r.Sq(x, y))
			case 'W':
				white = append(white, r.Sq(x, y))
			}
		}
	}
	b, err := SetUp(r, black, white, game.White)
	if err != nil {
		t.Fatal(err)
	}
	if b.Winner() != game.Empty || b.Empties() != 1 {
		t.Fatalf("set-up wrong: winner %s, %d empties", b.Winner(), b.Empties())
	}
	if err := b.Play(game.NewMove(r.Sq(3, 0))); err != nil {
		t.Fatalf("filling the last square: %v", err)
	}
	if b.Empties() != 0 || b.Winner() != game.Empty {
		t.Fatal("board should be full with no winner")
	}
	// A full board is a finished game: not even a null move.
	if err := b.PlayPartial(game.Move{}); !errors.Is(err, ErrGameOver) || !strings.Contains(err.Error(), "full") {
		t.Fatalf("null move on a full board: %v", err)
	}
}

// Null and seminull moves are allowed through PlayPartial only.
func TestNullAndSeminull(t *testing.T) {
	r := game.Connect6()
	b := MustNewBoard(r)
	playTurnsT(t, b, "j10")
	key := b.Key()
	if err := b.Play(game.Move{}); !errors.Is(err, ErrStoneCount) {
		t.Fatalf("Play(null) = %v, want ErrStoneCount", err)
	}
	if err := b.PlayPartial(game.Move{}); err != nil {
		t.Fatalf("null move: %v", err)
	}
	if b.ToMove() != game.Black || b.Turn() != 2 || b.Hash() != MustNewBoard(r).Key()^ZobristKey(game.Black, 9, 9) {
		t.Fatalf("after a null move: to move %s, turn %d", b.ToMove(), b.Turn())
	}
	if b.Key() == key {
		t.Fatal("the null move must change the key (side to move)")
	}
	if err := b.PlayPartial(parseMoveT(t, r, "k10")); err != nil {
		t.Fatalf("seminull move: %v", err)
	}
	if b.Stones(game.Black) != 2 || b.ToMove() != game.White {
		t.Fatal("seminull move not played")
	}
	if err := b.PlayPartial(parseMoveT(t, r, "a1a2a3")); !errors.Is(err, ErrStoneCount) {
		t.Fatalf("PlayPartial with too many stones: %v", err)
	}
	if err := b.PlayPartial(parseMoveT(t, r, "k10")); !errors.Is(err, ErrOccupied) {
		t.Fatalf("PlayPartial on a stone: %v", err)
	}
	h := b.History()
	if len(h) != 3 || h[1].Len() != 0 || h[2].Len() != 1 {
		t.Fatalf("history %v", game.FormatTurns(r, h))
	}
	if game.FormatTurns(r, h) != "j10 - k10" {
		t.Fatalf("history written %q", game.FormatTurns(r, h))
	}
	for i := 0; i < 3; i++ {
		if err := b.Undo(); err != nil {
			t.Fatal(err)
		}
	}
	if d := boardSnapshot(b).diff(boardSnapshot(MustNewBoard(r))); d != "" {
		t.Fatalf("undo of null/seminull: %s", d)
	}
	// The null move is read and replayed from notation too.
	if ms, err := game.ParseTurns(r, "j10 - k10"); err != nil || len(ms) != 3 || ms[1].Len() != 0 {
		t.Fatalf("ParseTurns with '-': %v %v", ms, err)
	}
}

func TestSetUp(t *testing.T) {
	r := game.Connect6()
	blk := []game.Square{r.Sq(9, 9), r.Sq(10, 10)}
	wht := []game.Square{r.Sq(9, 10)}
	b, err := SetUp(r, blk, wht, game.White)
	if err != nil {
		t.Fatal(err)
	}
	if b.ToMove() != game.White || b.Stones(game.Black) != 2 || b.Stones(game.White) != 1 || b.Turn() != 0 {
		t.Fatalf("set-up: to move %s, stones %d/%d, turn %d", b.ToMove(), b.Stones(game.Black), b.Stones(game.White), b.Turn())
	}
	if got := b.StoneList(game.Black); len(got) != 2 || got[0] != r.Sq(9, 9) || got[1] != r.Sq(10, 10) {
		t.Fatalf("StoneList = %v", got)
	}
	checkAgainstRebuild(t, b, "set-up")
	// The first turn of a set-up position with stones places p, even for Black.
	if err := b.Play(parseMoveT(t, r, "a1")); !errors.Is(err, ErrStoneCount) {
		t.Fatalf("one stone after set-up: %v", err)
	}
	if err := b.Play(parseMoveT(t, r, "a1a2")); err != nil {
		t.Fatal(err)
	}
	bb, err := SetUp(r, blk, wht, game.Black)
	if err != nil {
		t.Fatal(err)
	}
	if err := bb.Play(parseMoveT(t, r, "a1a2")); err != nil {
		t.Fatalf("Black's first set-up turn with two stones: %v", err)
	}
	// An empty set-up is the start of the game: q stones.
	eb, err := SetUp(r, nil, nil, game.Black)
	if err != nil {
		t.Fatal(err)
	}
	if err := eb.Play(parseMoveT(t, r, "j10k10")); !errors.Is(err, ErrStoneCount) {
		t.Fatalf("empty set-up, two stones: %v", err)
	}
	// Bad set-ups.
	six := []game.Square{r.Sq(0, 0), r.Sq(1, 0), r.Sq(2, 0), r.Sq(3, 0), r.Sq(4, 0), r.Sq(5, 0)}
	sixW := []game.Square{r.Sq(0, 5), r.Sq(1, 5), r.Sq(2, 5), r.Sq(3, 5), r.Sq(4, 5), r.Sq(5, 5)}
	for name, tc := range map[string]struct {
		black, white []game.Square
		toMove       game.Color
		want         string
	}{
		"occupied":    {blk, blk[:1], game.White, "occupied"},
		"duplicate":   {[]game.Square{blk[0], blk[0]}, nil, game.White, "occupied"},
		"off board":   {[]game.Square{361}, nil, game.White, "off the board"},
		"both rows":   {six, sixW, game.White, "both"},
		"side empty":  {blk, wht, game.Empty, "side to move"},
		"bad rules":   {nil, nil, game.Black, ""},
		"negative sq": {nil, []game.Square{-1}, game.Black, "off the board"},
	} {
		rr := r
		if name == "bad rules" {
			rr = game.Rules{M: 19, N: 19, K: 6, P: 7, Q: 1}
		}
		_, err := SetUp(rr, tc.black, tc.white, tc.toMove)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("SetUp %s: %v, want error containing %q", name, err, tc.want)
		}
	}
	// A set-up with a finished row is a finished game.
	wb, err := SetUp(r, six, nil, game.White)
	if err != nil {
		t.Fatal(err)
	}
	if wb.Winner() != game.Black {
		t.Fatal("set-up row not detected")
	}
	if err := wb.Play(parseMoveT(t, r, "s1s2")); !errors.Is(err, ErrGameOver) {
		t.Fatalf("play after a set-up win: %v", err)
	}
}

func TestMoveBasics(t *testing.T) {
	m := game.NewMove(5, 3, 9)
	if m.Len() != 3 || m.At(0) != 3 || m.At(1) != 5 || m.At(2) != 9 {
		t.Fatalf("NewMove does not sort: %v", m.Squares())
	}
	if !m.Contains(5) || m.Contains(4) {
		t.Fatal("Contains")
	}
	if w := game.NewMove(7).With(2); w != game.NewMove(2, 7) {
		t.Fatal("With")
	}
	if game.NewMove(3, 5) != game.NewMove(5, 3) {
		t.Fatal("a move must have one representation")
	}
	if game.NewMove(1, 2, 3, 4, 5).Len() != game.MaxPerTurn {
		t.Fatal("NewMove must keep at most MaxPerTurn squares")
	}
}
