package engine

import (
	"errors"
	"strings"
	"testing"
)

func TestRulesValidateAndParse(t *testing.T) {
	good := []string{"19,19,6,2,1", "7,7,4,2,1", "25,25,6,2,1", "26,26,6,2,1", "9,7,5,3,2", " 8, 8 ,4,1,1 "}
	for _, s := range good {
		r, err := ParseRules(s)
		if err != nil {
			t.Fatalf("ParseRules(%q): %v", s, err)
		}
		back, err := ParseRules(r.String())
		if err != nil || back != r {
			t.Fatalf("round trip of %q: %v %v", s, back, err)
		}
	}
	if Connect6().String() != "19,19,6,2,1" {
		t.Fatalf("Connect6() = %s", Connect6())
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
		_, err := ParseRules(s)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseRules(%q) = %v, want an error containing %q", s, err, want)
		}
	}
	if _, err := NewBoard(Rules{30, 30, 6, 2, 1}); err == nil {
		t.Error("NewBoard accepted a 30x30 board")
	}
	if r := Connect6(); r.StonesForTurn(0) != 1 || r.StonesForTurn(1) != 2 || r.StonesForTurn(7) != 2 || r.ThreatLevel() != 4 {
		t.Error("Connect6 turn sizes or threat level wrong")
	}
}

func TestParseColor(t *testing.T) {
	for s, want := range map[string]Color{"B": Black, "b": Black, "black": Black, " White ": White, "w": White} {
		if c, err := ParseColor(s); err != nil || c != want {
			t.Errorf("ParseColor(%q) = %v, %v", s, c, err)
		}
	}
	if _, err := ParseColor("x"); err == nil {
		t.Error("ParseColor(x) succeeded")
	}
	if Black.Opp() != White || White.Opp() != Black || Black.String() != "B" || White.String() != "W" || Empty.String() != "." {
		t.Error("colour basics")
	}
}

// playTurnsT plays turns one by one and fails the test on an error.
func playTurnsT(t *testing.T, b *Board, turns string) {
	t.Helper()
	ms, err := ParseTurns(b.Rules(), turns)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range ms {
		if err := b.Play(m); err != nil {
			t.Fatalf("%s: %v", MoveName(b.Rules(), m), err)
		}
	}
}

// Illegal moves give a *MoveError wrapping the reason, with a message that
// names the turn and the square, and leave the board untouched.
func TestIllegalMoves(t *testing.T) {
	r := Connect6()
	cases := []struct {
		name   string
		before string
		move   Move
		want   error
		msg    []string
	}{
		{"occupied", "j10", NewMove(r.Sq(9, 9), r.Sq(10, 10)), ErrOccupied, []string{"turn 2", "occupied", "j10"}},
		{"occupied second stone", "j10 k10k11", NewMove(r.Sq(0, 0), r.Sq(10, 10)), ErrOccupied, []string{"turn 3", "k11"}},
		{"off board", "", NewMove(Square(361)), ErrOffBoard, []string{"turn 1", "off the board"}},
		{"negative square", "j10", NewMove(Square(-5), r.Sq(0, 0)), ErrOffBoard, []string{"off the board"}},
		{"two stones on the first turn", "", NewMove(r.Sq(9, 9), r.Sq(9, 10)), ErrStoneCount, []string{"turn 1", "2 stones", "places 1"}},
		{"one stone on a later turn", "j10", NewMove(r.Sq(0, 0)), ErrStoneCount, []string{"turn 2", "1 stones", "places 2"}},
		{"three stones", "j10", NewMove(r.Sq(0, 0), r.Sq(1, 1), r.Sq(2, 2)), ErrStoneCount, []string{"3 stones"}},
		{"null move", "j10", Move{}, ErrStoneCount, []string{"0 stones"}},
		{"duplicate", "j10", NewMove(r.Sq(3, 3), r.Sq(3, 3)), ErrDuplicate, []string{"twice", "d4"}},
		{"game over", "j10 a1a2 j11j12 b1b2 j13j14 c1c2 j15j9", NewMove(r.Sq(5, 5), r.Sq(6, 6)), ErrGameOver, []string{"over", "B has won"}},
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
	r := Connect6()
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
	if _, err := Replay(Rules{}, nil); err == nil {
		t.Error("Replay with invalid rules succeeded")
	}
}

// k or more in a row wins, in every direction; an overline counts; a win
// may take fewer stones than the turn allows.
func TestWinDetection(t *testing.T) {
	r := Connect6()
	cases := []struct {
		name, turns string
		winner      Color
	}{
		{"horizontal", "j10 a1a3 k10l10 b1b3 m10n10 c1c3 o10e19", Black},
		{"vertical", "j10 a1a3 j11j12 b1b3 j13j14 c1c3 j15s19", Black},
		{"diagonal", "j10 a1a3 k11l12 b1b3 m13n14 c1c3 o15s1", Black},
		{"anti-diagonal", "j10 a1a3 k9l8 b1b3 m7n6 c1c3 o5s1", Black},
		{"white wins", "j10 a1b1 s19s18 c1d1 s17s16 e1f1", White},
		{"overline of seven", "j10 a1a3 k10l10 b1b3 n10o10 c1c3 p10m10", Black},
		{"overline joining two groups", "a10 a1a3 b10c10 b1b3 e10f10 c1c3 g10h10 d1d3 d10", Black},
		{"winning single stone", "j10 a1a3 k10l10 b1b3 m10n10 c1c3 o10", Black},
		{"five is not six", "j10 a1a3 k10l10 b1b3 m10n10 c1c3", Empty},
		{"six with a gap is not six", "j10 a1a3 k10l10 b1b3 m10n10 c1c3 p10q10", Empty},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b := MustNewBoard(r)
			ms, err := ParseTurns(r, tc.turns)
			if err != nil {
				t.Fatal(err)
			}
			for i, m := range ms {
				if w := b.Winner(); w != Empty {
					t.Fatalf("winner %s before turn %d", w, i+1)
				}
				if err := b.Play(m); err != nil {
					t.Fatalf("turn %d %s: %v", i+1, MoveName(r, m), err)
				}
			}
			if w := b.Winner(); w != tc.winner {
				t.Fatalf("Winner = %s, want %s\n%s", w, tc.winner, b.Diagram())
			}
			if tc.winner != Empty && b.Threats(tc.winner) != r.P+1 {
				t.Fatalf("a finished row must count as p+1 threats")
			}
			if err := b.Undo(); err != nil || b.Winner() != Empty {
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
	r := Rules{4, 4, 4, 2, 1}
	// Fill 15 squares without four in a row, leave d4.
	rows := []string{"BBWW", "WWBB", "BBWW", "WWB."}
	var black, white []Square
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
	b, err := SetUp(r, black, white, White)
	if err != nil {
		t.Fatal(err)
	}
	if b.Winner() != Empty || b.Empties() != 1 {
		t.Fatalf("set-up wrong: winner %s, %d empties", b.Winner(), b.Empties())
	}
	if err := b.Play(NewMove(r.Sq(3, 0))); err != nil {
		t.Fatalf("filling the last square: %v", err)
	}
	if b.Empties() != 0 || b.Winner() != Empty {
		t.Fatal("board should be full with no winner")
	}
	// A full board is a finished game: not even a null move.
	if err := b.PlayPartial(Move{}); !errors.Is(err, ErrGameOver) || !strings.Contains(err.Error(), "full") {
		t.Fatalf("null move on a full board: %v", err)
	}
}

// Null and seminull moves are allowed through PlayPartial only.
func TestNullAndSeminull(t *testing.T) {
	r := Connect6()
	b := MustNewBoard(r)
	playTurnsT(t, b, "j10")
	key := b.Key()
	if err := b.Play(Move{}); !errors.Is(err, ErrStoneCount) {
		t.Fatalf("Play(null) = %v, want ErrStoneCount", err)
	}
	if err := b.PlayPartial(Move{}); err != nil {
		t.Fatalf("null move: %v", err)
	}
	if b.ToMove() != Black || b.Turn() != 2 || b.Hash() != MustNewBoard(r).Key()^ZobristKey(Black, 9, 9) {
		t.Fatalf("after a null move: to move %s, turn %d", b.ToMove(), b.Turn())
	}
	if b.Key() == key {
		t.Fatal("the null move must change the key (side to move)")
	}
	if err := b.PlayPartial(parseMoveT(t, r, "k10")); err != nil {
		t.Fatalf("seminull move: %v", err)
	}
	if b.Stones(Black) != 2 || b.ToMove() != White {
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
		t.Fatalf("history %v", FormatTurns(r, h))
	}
	if FormatTurns(r, h) != "j10 - k10" {
		t.Fatalf("history written %q", FormatTurns(r, h))
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
	if ms, err := ParseTurns(r, "j10 - k10"); err != nil || len(ms) != 3 || ms[1].Len() != 0 {
		t.Fatalf("ParseTurns with '-': %v %v", ms, err)
	}
}

func TestSetUp(t *testing.T) {
	r := Connect6()
	blk := []Square{r.Sq(9, 9), r.Sq(10, 10)}
	wht := []Square{r.Sq(9, 10)}
	b, err := SetUp(r, blk, wht, White)
	if err != nil {
		t.Fatal(err)
	}
	if b.ToMove() != White || b.Stones(Black) != 2 || b.Stones(White) != 1 || b.Turn() != 0 {
		t.Fatalf("set-up: to move %s, stones %d/%d, turn %d", b.ToMove(), b.Stones(Black), b.Stones(White), b.Turn())
	}
	if got := b.StoneList(Black); len(got) != 2 || got[0] != r.Sq(9, 9) || got[1] != r.Sq(10, 10) {
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
	bb, err := SetUp(r, blk, wht, Black)
	if err != nil {
		t.Fatal(err)
	}
	if err := bb.Play(parseMoveT(t, r, "a1a2")); err != nil {
		t.Fatalf("Black's first set-up turn with two stones: %v", err)
	}
	// An empty set-up is the start of the game: q stones.
	eb, err := SetUp(r, nil, nil, Black)
	if err != nil {
		t.Fatal(err)
	}
	if err := eb.Play(parseMoveT(t, r, "j10k10")); !errors.Is(err, ErrStoneCount) {
		t.Fatalf("empty set-up, two stones: %v", err)
	}
	// Bad set-ups.
	six := []Square{r.Sq(0, 0), r.Sq(1, 0), r.Sq(2, 0), r.Sq(3, 0), r.Sq(4, 0), r.Sq(5, 0)}
	sixW := []Square{r.Sq(0, 5), r.Sq(1, 5), r.Sq(2, 5), r.Sq(3, 5), r.Sq(4, 5), r.Sq(5, 5)}
	for name, tc := range map[string]struct {
		black, white []Square
		toMove       Color
		want         string
	}{
		"occupied":    {blk, blk[:1], White, "occupied"},
		"duplicate":   {[]Square{blk[0], blk[0]}, nil, White, "occupied"},
		"off board":   {[]Square{361}, nil, White, "off the board"},
		"both rows":   {six, sixW, White, "both"},
		"side empty":  {blk, wht, Empty, "side to move"},
		"bad rules":   {nil, nil, Black, ""},
		"negative sq": {nil, []Square{-1}, Black, "off the board"},
	} {
		rr := r
		if name == "bad rules" {
			rr = Rules{19, 19, 6, 7, 1}
		}
		_, err := SetUp(rr, tc.black, tc.white, tc.toMove)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("SetUp %s: %v, want error containing %q", name, err, tc.want)
		}
	}
	// A set-up with a finished row is a finished game.
	wb, err := SetUp(r, six, nil, White)
	if err != nil {
		t.Fatal(err)
	}
	if wb.Winner() != Black {
		t.Fatal("set-up row not detected")
	}
	if err := wb.Play(parseMoveT(t, r, "s1s2")); !errors.Is(err, ErrGameOver) {
		t.Fatalf("play after a set-up win: %v", err)
	}
}

func TestMoveBasics(t *testing.T) {
	m := NewMove(5, 3, 9)
	if m.Len() != 3 || m.At(0) != 3 || m.At(1) != 5 || m.At(2) != 9 {
		t.Fatalf("NewMove does not sort: %v", m.Squares())
	}
	if !m.Contains(5) || m.Contains(4) {
		t.Fatal("Contains")
	}
	if w := NewMove(7).With(2); w != NewMove(2, 7) {
		t.Fatal("With")
	}
	if NewMove(3, 5) != NewMove(5, 3) {
		t.Fatal("a move must have one representation")
	}
	if NewMove(1, 2, 3, 4, 5).Len() != MaxPerTurn {
		t.Fatal("NewMove must keep at most MaxPerTurn squares")
	}
}

// Proof lines with null ("-") and seminull (one stone) defender turns:
// Replay refuses them, ReplayPartial plays them, and they survive an SGF
// round trip through GameToSGF and LineFromSGF (GameFromSGF refuses them).
func TestPartialLines(t *testing.T) {
	r := Connect6()
	turns, err := ParseTurns(r, "j10 - k10k11 l12 m12m13")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Replay(r, turns); !errors.Is(err, ErrStoneCount) {
		t.Fatalf("Replay of a null move: %v", err)
	}
	b, err := ReplayPartial(r, turns)
	if err != nil {
		t.Fatal(err)
	}
	if b.ToMove() != White || b.Stones(Black) != 5 || b.Stones(White) != 1 || b.Turn() != 5 {
		t.Fatalf("after the partial line: %s to move, %d/%d stones, turn %d", b.ToMove(), b.Stones(Black), b.Stones(White), b.Turn())
	}
	roots, err := ParseSGF(GameToSGF(r, turns))
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := GameFromSGF(roots[0], r); err == nil {
		t.Fatal("GameFromSGF read a null move as a game turn")
	}
	_, back, err := LineFromSGF(roots[0], r)
	if err != nil {
		t.Fatal(err)
	}
	if FormatTurns(r, back) != FormatTurns(r, turns) {
		t.Fatalf("round trip: %q, want %q", FormatTurns(r, back), FormatTurns(r, turns))
	}
	// Partial turns are still checked: occupied squares, too many stones.
	for _, bad := range []string{"j10 - j10", "j10 a1a2 b1b2c1"} {
		ms, err := ParseTurns(r, bad)
		if err == nil {
			_, err = ReplayPartial(r, ms)
		}
		if err == nil {
			t.Errorf("ReplayPartial(%q) accepted", bad)
		}
	}
}
