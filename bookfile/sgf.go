package bookfile

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"c6book"
	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/engine/sgf"
	"c6book/internal/idset"
	"c6book/proofbook"
)

// SGF: games, single or collections, with variations, read in the forms
// Connect6 programs write: LittleGolem's turn notation (B[j10];W[j11k10]),
// SGF points one stone per node (B[jj];W[kj];W[ji], lower case, row a at
// the top, as the export writes them: sgf.SGFStoneProps cites the
// convention) or the Connect6 editors' upper-case points (;GM[511]...
// B[JJ];W[KK];W[IK], row A at the bottom); RU[m,n,k,p,q] or SZ. Comments
// (C), node names (N, the user label) and marks (CR, TR, SQ, MA, SL, LB)
// are imported too. The export writes every move and mark in SGF points
// and adds the status of each node: GB[2]/GW[2] ("good for") when proved
// for Black/White, and the private property XS with one value per
// attacker holding a status, "B:proved:2" (attacker, status, order). A
// turn's notes and status sit on the node of its last stone.

var markProps = map[string]c6book.MarkShape{"CR": c6book.MarkCircle, "TR": c6book.MarkTriangle, "SQ": c6book.MarkSquare, "MA": c6book.MarkCross, "SL": c6book.MarkSelect}

func sgfPoint(r game.Rules, s game.Square) string { return sgf.SGFPoint(r, s) }

func parseSGFPoint(r game.Rules, v string) (game.Square, error) {
	if !strings.Contains(v, ":") {
		if sq, err := sgf.SGFPoints(r, v); err == nil && len(sq) == 1 {
			return sq[0], nil
		}
	}
	return game.NoSquare, fmt.Errorf("bad point %.24q", v)
}

// nodeMarks reads the marks of an SGF node (in the board's frame), each
// once (compressed point lists may cover the board many times over).
func nodeMarks(r game.Rules, n *sgf.SGFNode) ([]proofbook.Mark, error) {
	var out []proofbook.Mark
	seen := map[proofbook.Mark]bool{}
	add := func(mk proofbook.Mark) {
		if !seen[mk] {
			seen[mk] = true
			out = append(out, mk)
		}
	}
	for _, p := range n.Props {
		if shape, ok := markProps[p.ID]; ok {
			for _, v := range p.Values {
				// One point, or a compressed point list ("aa:cc").
				sqs, err := sgf.SGFPoints(r, v)
				if err != nil {
					return nil, fmt.Errorf("%s: %w", p.ID, err)
				}
				for _, s := range sqs {
					add(proofbook.Mark{Square: s, Shape: shape})
				}
			}
		}
		if p.ID == "LB" {
			for _, v := range p.Values {
				pt, text, ok := strings.Cut(v, ":")
				if !ok {
					return nil, fmt.Errorf("LB[%.24q]: want point:text", v)
				}
				s, err := parseSGFPoint(r, pt)
				if err != nil {
					return nil, fmt.Errorf("LB: %w", err)
				}
				add(proofbook.Mark{Square: s, Text: text})
			}
		}
	}
	return out, nil
}

// SGFImportOptions say how an SGF import reads its input.
type SGFImportOptions struct {
	// Partial reads a turn with fewer stones than the rules place (B[] or
	// W[], the null move; one stone where the rules place p) as a null or
	// seminull move, as a proof line holds them (and as ExportSGF writes
	// them); else such a turn refuses the file. A game record whose main
	// line holds one is not counted as a game.
	Partial bool
	// Limits bound the input (zero fields: the engine's defaults,
	// sgf.SGFMaxBytes and the others).
	Limits sgf.SGFLimits
}

// ImportSGF imports an SGF collection held in a string into bk, with the
// default options (see ImportSGFReader).
func ImportSGF(ctx context.Context, bk *proofbook.Book, data string) (proofbook.ImportStats, error) {
	return ImportSGFReader(ctx, bk, strings.NewReader(data), SGFImportOptions{})
}

// ImportSGFReader merges the games (and their variations) of an SGF
// collection into bk, in one transaction: on any error nothing is
// written. The input is read as it is stored, one node at a time: whatever
// its size, the import holds one node and the line being read, and the
// reader's limits refuse an input too large. A game record (a root with RE,
// PB or PW) also counts its main line as a game in the statistics, once
// whatever the number of imports. An error names the game and the node
// (counted from 1 in the input) and the byte where it starts.
func ImportSGFReader(ctx context.Context, bk *proofbook.Book, rd io.Reader, opts SGFImportOptions) (proofbook.ImportStats, error) {
	tmpl, err := board.NewBoard(bk.Rules())
	if err != nil {
		return proofbook.ImportStats{}, err
	}
	var st proofbook.ImportStats
	positions, edges, err := bk.WriteTree(ctx, func(tx *proofbook.TreeTx, root proofbook.Node) error {
		st = proofbook.ImportStats{}
		imp := &sgfImport{tx: tx, root: root, r: bk.Rules(), tmpl: tmpl, sc: sgf.NewSGFScanner(rd, opts.Limits), partial: opts.Partial, st: &st}
		return imp.run(ctx)
	})
	if err != nil {
		return proofbook.ImportStats{}, err
	}
	st.Positions, st.Edges = positions, edges
	return st, nil
}

// sgfImport is the state of an SGF import: the board and the stored
// position of the node read last, and one frame per open game tree.
type sgfImport struct {
	tx      *proofbook.TreeTx
	root    proofbook.Node // the empty board's
	r       game.Rules
	tmpl    *board.Board // the empty board
	sc      *sgf.SGFScanner
	partial bool
	st      *proofbook.ImportStats

	game   int // game trees of the collection begun
	b      *board.Board
	cur    proofbook.Node
	main   bool // the node read last is on its game's main line
	frames []sgfFrame
	// The game's root, when it is a game record (RE, PB or PW): its RE,
	// the main line's turns and positions, and whether a turn of it was
	// short (a proof line's null or seminull move: not a game).
	record bool
	re     string
	turns  []game.Move
	path   []proofbook.PosID
	short  bool
	rooted bool // the game's root node has been read
	// A turn written one stone per node (sgf.SGFStoneProps): the
	// stones read so far of the turn being put together, their colour and
	// nodes (their notes go to the position the turn reaches). pendUsed:
	// variations began after them (each one completes the turn), so the
	// game tree's end does not store them as a short turn.
	pend      []game.Square
	pendC     game.Color
	pendNodes []*sgf.SGFNode
	pendUsed  bool
	// Where the node read last and the first of pend begin (node index
	// in the input, byte), for errors.
	at, pendAt [2]int64
}

// sgfFrame is an open game tree: where its first node hangs from.
type sgfFrame struct {
	cur   proofbook.Node
	turns int  // turns played on the board before it
	main  bool // it continues the main line
	kids  int  // variations opened in it so far
	// The stones of a turn begun before it (one stone per node), which
	// its nodes complete.
	pend      []game.Square
	pendC     game.Color
	pendNodes []*sgf.SGFNode
}

func (im *sgfImport) run(ctx context.Context) error {
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		ev, err := im.sc.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			if im.game > 0 {
				return fmt.Errorf("game %d: %w", im.game, err)
			}
			return err
		}
		switch ev.Kind {
		case sgf.SGFTreeStart:
			if ev.Depth == 1 {
				im.game++
				im.rooted, im.record, im.re, im.short = false, false, "", false
				im.turns, im.path = im.turns[:0], im.path[:0]
				im.b = im.tmpl.Clone()
				im.pend, im.pendNodes, im.pendUsed = nil, nil, false
				im.cur = im.root
				im.main = true
				im.frames = append(im.frames[:0], sgfFrame{cur: im.cur, main: true})
				continue
			}
			// The first variation of a node on the main line continues it.
			top := &im.frames[len(im.frames)-1]
			im.main = im.main && top.kids == 0
			top.kids++
			im.frames = append(im.frames, sgfFrame{cur: im.cur, turns: im.b.Turn(), main: im.main,
				pend: slices.Clone(im.pend), pendC: im.pendC, pendNodes: slices.Clone(im.pendNodes)})
			im.pendUsed = false
		case sgf.SGFTreeEnd:
			// Stones of a turn the tree ends in (no variation completes
			// them): a short turn (a proof line's seminull move).
			if len(im.pend) > 0 && !im.pendUsed {
				if err := im.flush(ctx); err != nil {
					return fmt.Errorf("game %d, %w", im.game, err)
				}
			}
			f := im.frames[len(im.frames)-1]
			im.pend, im.pendC, im.pendNodes = f.pend, f.pendC, f.pendNodes
			im.pendUsed = len(im.pend) > 0
			im.frames = im.frames[:len(im.frames)-1]
			for im.b.Turn() > f.turns {
				if err := im.b.Undo(); err != nil {
					return err
				}
			}
			im.cur = f.cur
			if len(im.frames) > 0 {
				im.main = im.frames[len(im.frames)-1].main
			}
			if ev.Depth == 1 {
				if err := im.endGame(ctx); err != nil {
					return fmt.Errorf("game %d: %w", im.game, err)
				}
			}
		case sgf.SGFNodeRead:
			im.at = [2]int64{int64(ev.Index), ev.Offset}
			if err := im.node(ctx, ev.Node); err != nil {
				var pe pendError
				if errors.As(err, &pe) {
					return fmt.Errorf("game %d, %w", im.game, err)
				}
				return fmt.Errorf("game %d, node %d (byte %d): %w", im.game, ev.Index, ev.Offset, err)
			}
		}
	}
}

// node stores one node: its move from the position read last, and its
// comment, name and marks.
func (im *sgfImport) node(ctx context.Context, n *sgf.SGFNode) error {
	r := im.r
	if !im.rooted {
		im.rooted = true
		rr, err := sgf.SGFRules(n, r)
		if err != nil {
			return err
		}
		if rr != r {
			return fmt.Errorf("rules %s, the book's are %s", rr, r)
		}
		re, hasRE := n.Get("RE")
		_, pb := n.Get("PB")
		_, pw := n.Get("PW")
		im.record, im.re = hasRE || pb || pw, re
		im.path = append(im.path, im.cur.ID())
	}
	if id := sgf.SGFSetupProp(n); id != "" {
		return fmt.Errorf("set-up stones (%s) are not supported; games must be played from the empty board", id)
	}
	c, m, ok, err := sgf.SGFMove(r, n)
	if err != nil {
		return err
	}
	if !ok {
		if len(im.pend) > 0 {
			im.pendNodes = append(im.pendNodes, n) // its notes go to the turn's position
			return nil
		}
		return im.mergeNote(ctx, n)
	}
	if len(im.pend) > 0 && c != im.pendC {
		// The other colour: the stones before were the whole turn.
		if err := im.flush(ctx); err != nil {
			return err
		}
	}
	nodes := []*sgf.SGFNode{n}
	if len(im.pend) > 0 {
		if m, err = sgf.SGFJoinStones(r, im.pend, m); err != nil {
			return err
		}
		nodes = append(im.pendNodes, n)
		im.pend, im.pendNodes, im.pendUsed = nil, nil, false
	}
	if c == im.b.ToMove() && m.Len() > 0 && m.Len() < r.StonesForTurn(im.b.Turn()) {
		// The first stones of a turn written one stone per node: the
		// next node of the same colour completes it.
		im.pend, im.pendC, im.pendNodes, im.pendUsed = m.Squares(), c, nodes, false
		im.pendAt = im.at
		return nil
	}
	return im.play(ctx, c, m, nodes)
}

// flush plays the stones of a turn begun one stone per node that no node
// completes: a short turn (a proof line's seminull move, read with
// Partial; else an error).
func (im *sgfImport) flush(ctx context.Context) error {
	m, nodes := game.NewMove(im.pend...), im.pendNodes
	c := im.pendC
	im.pend, im.pendNodes, im.pendUsed = nil, nil, false
	if err := im.play(ctx, c, m, nodes); err != nil {
		return pendError{fmt.Errorf("node %d (byte %d): %w", im.pendAt[0], im.pendAt[1], err)}
	}
	return nil
}

// pendError is an error of a turn begun one stone per node, located at
// its first node.
type pendError struct{ err error }

func (e pendError) Error() string { return e.err.Error() }
func (e pendError) Unwrap() error { return e.err }

// play stores turn m of colour c from the position read last, with the
// comments, names and marks of its nodes.
func (im *sgfImport) play(ctx context.Context, c game.Color, m game.Move, nodes []*sgf.SGFNode) error {
	r := im.r
	b := im.b
	if c != b.ToMove() {
		return fmt.Errorf("%s to move, but the node plays %s", b.ToMove(), c)
	}
	full := b.Check(m, false) == nil
	if !full && !im.partial {
		if err := b.Check(m, true); err != nil {
			return fmt.Errorf("%s[%s]: %w", c, sgf.SGFMoveValue(r, m), err)
		}
		want := r.StonesForTurn(b.Turn())
		return fmt.Errorf("%s[%s]: %d of the %d stones the turn places (a proof line's null or seminull move: import it with --partial)",
			c, sgf.SGFMoveValue(r, m), m.Len(), want)
	}
	next, err := im.tx.Step(ctx, b, im.cur, m, im.partial)
	if err != nil {
		return fmt.Errorf("%s[%s]: %w", c, sgf.SGFMoveValue(r, m), err)
	}
	im.cur = next
	if im.main {
		im.turns = append(im.turns, m)
		im.path = append(im.path, next.ID())
		im.short = im.short || !full
	}
	for _, n := range nodes {
		if err := im.mergeNote(ctx, n); err != nil {
			return err
		}
	}
	return nil
}

// sgfGameSource is the game source of the game records an SGF import
// stores; their id is a digest of the turns (see endGame).
const sgfGameSource = "sgf"

// endGame ends a game tree of the collection: when it is a game record
// (its root says who played, PB and PW, or how it ended, RE) its main line
// (first variation) is stored as a game for the statistics, unless a turn
// of it is short (a proof line, not a game). An opening tree without them
// (as ExportSGF writes) adds no game. The game's id is a digest of its
// turns and result, so importing the same record again (from any file)
// changes nothing. Its result is the winner on the board at the end of the
// line, else RE's ("B+…", "W+…"), else unfinished.
func (im *sgfImport) endGame(ctx context.Context) error {
	im.st.Games++
	if !im.record || im.short || len(im.turns) == 0 {
		return nil
	}
	b := im.tmpl.Clone()
	for _, m := range im.turns {
		if err := b.Play(m); err != nil {
			return err // checked as it was stored
		}
	}
	result := b.Winner()
	if re := strings.ToUpper(strings.TrimSpace(im.re)); result == game.Empty {
		switch {
		case strings.HasPrefix(re, "B+"):
			result = game.Black
		case strings.HasPrefix(re, "W+"):
			result = game.White
		}
	}
	ext := sgfGameID(im.turns, result)
	added, err := im.tx.AddGame(ctx, sgfGameSource, ext, im.path, im.turns, result)
	switch {
	case err != nil:
		return err
	case !added:
		im.st.Already++
	default:
		im.st.Recorded++
	}
	return nil
}

// sgfGameID is a game record's id: a digest of its turns (each packed as
// c6book.PackMove, a uvarint) and its result.
func sgfGameID(turns []game.Move, result game.Color) string {
	data := make([]byte, 0, len(turns)*4+1)
	for _, m := range turns {
		data = binary.AppendUvarint(data, uint64(c6book.PackMove(m)))
	}
	sum := sha256.Sum256(append(data, byte(result)))
	return hex.EncodeToString(sum[:12])
}

// mergeNote adds an SGF node's comment, name and marks to the note of the
// position read last without losing what is there; importing the same
// text again changes nothing.
func (im *sgfImport) mergeNote(ctx context.Context, n *sgf.SGFNode) error {
	comment, _ := n.Get("C")
	label, _ := n.Get("N")
	comment, label = strings.TrimSpace(comment), strings.TrimSpace(label)
	marks, err := nodeMarks(im.r, n)
	if err != nil {
		return err
	}
	if comment == "" && label == "" && len(marks) == 0 {
		return nil
	}
	_, err = im.tx.AddNote(ctx, im.cur, comment, label, marks)
	return err
}

// ExportOptions bound an SGF export.
type ExportOptions struct {
	MaxNodes int // stop expanding after this many moves (0: no limit)
	MaxDepth int // turns below the exported position (0: no limit)
	// Line, when not nil, is the line from the empty board to the exported
	// position as the user sees it: the export follows its orientation
	// (the subtree too) instead of the first stored path's. It must lead to
	// the exported position; positions on the way that are not in the book
	// (a transposition) are written without notes.
	Line []game.Move
	// Progress, when not nil, is called with the number of moves exported
	// so far, every 1000 moves (on the exporting goroutine).
	Progress func(nodes int)
	// ProofLines: ExportSGF writes the moves of proof lines too (a null
	// move as an empty value, a seminull move as a lone stone), the whole
	// stored tree for an import with Partial; else it leaves them to
	// ExportProof, as a game tree for other programs wants.
	ProofLines bool
}

// ExportStats says what an export wrote.
type ExportStats struct {
	Nodes int // moves written below the exported position
	// Truncated: MaxNodes stopped the export before every stored move
	// below the position was written. The SGF says so in the root's game
	// comment (GC, which an import does not take as a position's note).
	Truncated bool
}

// ExportSGF writes one SGF game of bk: the main line from the empty board
// to position id, then id's whole subtree as variations, every move one
// stone per node in SGF points (sgf.SGFStoneProps). The moves of proof
// lines (a null or seminull move: fewer stones than the turn places) are
// left out (ExportProof writes them) unless opts.ProofLines. A position
// reached again by a transposition is written once with its subtree; later
// occurrences are leaves marked XT[1]. The SGF is written as the subtree is
// walked (out is buffered, and flushed at the end): the export holds the
// line being walked and one bit per position of the book, whatever the
// size of the subtree. On an error out may hold part of the SGF.
func ExportSGF(ctx context.Context, bk *proofbook.Book, id proofbook.PosID, out io.Writer, opts ExportOptions) (ExportStats, error) {
	var st ExportStats
	if opts.MaxNodes < 0 {
		return st, fmt.Errorf("export: at most %d nodes: want 0 (no limit) or more", opts.MaxNodes)
	}
	if opts.MaxDepth < 0 {
		return st, fmt.Errorf("export: depth %d: want 0 (no limit) or more", opts.MaxDepth)
	}
	r := bk.Rules()
	line, err := exportLine(ctx, bk, id, opts)
	if err != nil {
		return st, err
	}
	// The root's game comment says whether the export is cut, before the
	// subtree is written: a first walk counts the moves (without notes).
	truncated := false
	if opts.MaxNodes > 0 {
		var err error
		if truncated, err = exportCut(ctx, bk, id, opts); err != nil {
			return st, err
		}
	}
	sw := sgf.NewSGFWriter(out)
	rootProps := sgfRootProps(r)
	if truncated {
		rootProps = append(rootProps, sgf.SGFProp{ID: "GC", Values: []string{
			fmt.Sprintf("c6book: export truncated at %d moves below the exported position; the book stores more", opts.MaxNodes)}})
	}
	b, err := board.NewBoard(r)
	if err != nil {
		return st, err
	}
	sw.Open()
	props, err := writeLine(ctx, bk, sw, line, b, rootProps)
	if err != nil {
		return st, err
	}
	var seen idset.Set
	count := 0
	// bare: the position has no note and no status (its parent's
	// Children says so): nothing to annotate.
	var expand func(props []sgf.SGFProp, pid proofbook.PosID, depth int, bare bool) error
	expand = func(props []sgf.SGFProp, pid proofbook.PosID, depth int, bare bool) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		n := &sgf.SGFNode{Props: props}
		if !bare {
			if _, err := annotate(ctx, bk, n, pid, b); err != nil {
				return err
			}
		}
		if seen.Has(int64(pid)) {
			n.Set("XT", "1")
			sw.Node(n.Props...)
			return nil
		}
		seen.Add(int64(pid))
		sw.Node(n.Props...)
		if opts.MaxDepth > 0 && depth >= opts.MaxDepth {
			return nil
		}
		kids, err := bk.Children(ctx, pid)
		if err != nil {
			return err
		}
		_, sym := b.CanonicalKey()
		if !opts.ProofLines {
			kids = slices.DeleteFunc(kids, func(k proofbook.Child) bool { return k.Move.Len() < b.Rules().StonesForTurn(b.Turn()) })
		}
		variations := len(kids) > 1
		for _, k := range kids {
			bare := !k.Note && k.Label == "" && k.Proofs[0].Status == c6book.StatusUnknown && k.Proofs[1].Status == c6book.StatusUnknown
			more, err := exportMove(sw, b, opts, &count, sym, pid, k.Move, variations, func(props []sgf.SGFProp) error {
				return expand(props, k.ID, depth+1, bare)
			})
			if !more {
				st.Truncated = true
			}
			if !more || err != nil {
				return err
			}
		}
		return nil
	}
	if err := expand(props, id, 0, false); err != nil {
		return st, err
	}
	sw.Close()
	st.Nodes = count
	return st, sw.Flush()
}

// sgfRootProps are the root properties of an export: the file format,
// the board and the rules.
func sgfRootProps(r game.Rules) []sgf.SGFProp {
	return []sgf.SGFProp{
		{ID: "FF", Values: []string{"4"}}, {ID: "SZ", Values: []string{sgf.SGFSizeValue(r)}},
		{ID: "RU", Values: []string{r.String()}}, {ID: "AP", Values: []string{"c6book"}},
	}
}

// exportLine is the line an export writes down to position id: opts.Line
// (checked to lead to id), else the first stored path.
func exportLine(ctx context.Context, bk *proofbook.Book, id proofbook.PosID, opts ExportOptions) (proofbook.Line, error) {
	r := bk.Rules()
	if opts.Line != nil {
		l, err := locateLine(ctx, bk, opts.Line)
		if err != nil {
			return proofbook.Line{}, err
		}
		switch last := l.IDs[len(l.IDs)-1]; {
		case last == 0:
			return proofbook.Line{}, fmt.Errorf("export: the line %q: %w", game.FormatTurns(r, opts.Line), proofbook.ErrNotFound)
		case last != id:
			return proofbook.Line{}, fmt.Errorf("export: the line %q leads to position %d, not %d", game.FormatTurns(r, opts.Line), last, id)
		}
		return l, nil
	}
	lines, err := bk.PathsFromRoot(ctx, id, 1)
	if err != nil {
		return proofbook.Line{}, err
	}
	if len(lines) == 0 {
		return proofbook.Line{}, fmt.Errorf("position %d: no path from the root", id)
	}
	return lines[0], nil
}

// writeLine writes the nodes of line but the last (the exported
// position's, which the caller writes with its subtree: the returned
// props are its move), annotated, playing the turns on b (the empty
// board); the first node carries props.
func writeLine(ctx context.Context, bk *proofbook.Book, sw *sgf.SGFWriter, line proofbook.Line, b *board.Board, props []sgf.SGFProp) ([]sgf.SGFProp, error) {
	r := bk.Rules()
	for i, m := range line.Turns {
		n := &sgf.SGFNode{Props: props}
		if line.IDs[i] != 0 {
			if _, err := annotate(ctx, bk, n, line.IDs[i], b); err != nil {
				return nil, err
			}
		}
		sw.Node(n.Props...)
		c := b.ToMove()
		if err := b.PlayPartial(m); err != nil {
			return nil, fmt.Errorf("line to position %d, turn %d: %w", line.IDs[len(line.IDs)-1], i+1, err)
		}
		// One stone per node: the turn's position is annotated on its
		// last stone's node.
		stones := sgf.SGFStoneProps(r, c, m)
		for _, p := range stones[:len(stones)-1] {
			sw.Node(p)
		}
		props = stones[len(stones)-1:]
	}
	return props, nil
}

// exportMove writes the stored move mv of position pid (in its canonical
// frame; sym maps that frame onto b's) as the next node of an export, a
// variation when the position has several moves, with the subtree expand
// writes below it given the node's properties, and undoes it on b. n
// counts the moves written, against opts.MaxNodes and for opts.Progress;
// more is false when the budget was spent before mv (nothing written).
func exportMove(sw *sgf.SGFWriter, b *board.Board, opts ExportOptions, n *int, sym int, pid proofbook.PosID, mv game.Move, variations bool, expand func([]sgf.SGFProp) error) (more bool, err error) {
	if opts.MaxNodes > 0 && *n >= opts.MaxNodes {
		return false, nil
	}
	*n++
	if opts.Progress != nil && *n%1000 == 0 {
		opts.Progress(*n)
	}
	r := b.Rules()
	m := proofbook.FromCanonical(r, sym, mv)
	c := b.ToMove()
	if err := b.PlayPartial(m); err != nil {
		return true, fmt.Errorf("stored move %s of position %d: %w", game.MoveName(r, mv), pid, err)
	}
	if variations {
		sw.Open()
	}
	// One stone per node; the last one carries the position's notes.
	stones := sgf.SGFStoneProps(r, c, m)
	for _, p := range stones[:len(stones)-1] {
		sw.Node(p)
	}
	err = expand(stones[len(stones)-1:])
	if variations {
		sw.Close()
	}
	if uerr := b.Undo(); err == nil {
		err = uerr
	}
	return true, err
}

// exportCut reports whether an export with opts.MaxNodes > 0 stops before
// the end of id's subtree: it walks the subtree as ExportSGF does (each
// position expanded once, opts.MaxDepth), counting moves, until there are
// more than opts.MaxNodes.
func exportCut(ctx context.Context, bk *proofbook.Book, id proofbook.PosID, opts ExportOptions) (bool, error) {
	var seen idset.Set
	count := 0
	var walk func(pid proofbook.PosID, depth int) (bool, error)
	walk = func(pid proofbook.PosID, depth int) (bool, error) {
		if err := ctx.Err(); err != nil {
			return false, err
		}
		if seen.Has(int64(pid)) {
			return false, nil
		}
		seen.Add(int64(pid))
		if opts.MaxDepth > 0 && depth >= opts.MaxDepth {
			return false, nil
		}
		kids, err := fullTurnChildren(ctx, bk, pid, opts.ProofLines)
		if err != nil {
			return false, err
		}
		for _, k := range kids {
			if count >= opts.MaxNodes {
				return true, nil
			}
			count++
			if cut, err := walk(k, depth+1); cut || err != nil {
				return cut, err
			}
		}
		return false, nil
	}
	return walk(id, 0)
}

// fullTurnChildren lists the children of a position reached by a full
// turn (not a proof line's null or seminull move), in stored move order:
// the moves ExportSGF writes (all of them with proofLines). The turn at
// the root places Q stones, every other P.
func fullTurnChildren(ctx context.Context, bk *proofbook.Book, id proofbook.PosID, proofLines bool) ([]proofbook.PosID, error) {
	edges, err := bk.Edges(ctx, id, game.Empty)
	if err != nil {
		return nil, err
	}
	need := bk.Rules().P
	if root, _ := bk.Root(ctx); id == root {
		need = bk.Rules().Q
	}
	var out []proofbook.PosID
	for _, e := range edges {
		if proofLines || e.Move.Len() >= need {
			out = append(out, e.Child)
		}
	}
	return out, nil
}

// locateLine finds the positions of a line from the empty board (a turn
// with fewer stones than the rules place is a null or seminull move); the
// id of a position not in the book is 0.
func locateLine(ctx context.Context, bk *proofbook.Book, turns []game.Move) (proofbook.Line, error) {
	r := bk.Rules()
	b, err := board.NewBoard(r)
	if err != nil {
		return proofbook.Line{}, err
	}
	root, _ := bk.Root(ctx)
	line := proofbook.Line{Turns: turns, IDs: []proofbook.PosID{root}}
	for i, m := range turns {
		if err := b.PlayPartial(m); err != nil {
			return proofbook.Line{}, fmt.Errorf("line turn %d (%s): %w", i+1, game.MoveName(r, m), err)
		}
		id, _, err := bk.Locate(ctx, b)
		if err != nil && !errors.Is(err, proofbook.ErrNotFound) {
			return proofbook.Line{}, err
		}
		line.IDs = append(line.IDs, id)
	}
	return line, nil
}

// annotate writes position pid's comment, label, marks and status onto SGF
// node n and returns the position; b is the board at n (its frame maps the
// stored marks).
func annotate(ctx context.Context, bk *proofbook.Book, n *sgf.SGFNode, pid proofbook.PosID, b *board.Board) (proofbook.Position, error) {
	r := bk.Rules()
	p, err := bk.Position(ctx, pid)
	if err != nil {
		return p, err
	}
	_, sym := b.CanonicalKey()
	if p.Comment != "" {
		n.Set("C", p.Comment)
	}
	if p.Label != "" {
		n.Set("N", p.Label)
	}
	shapes := map[string][]string{}
	var labels []string
	for _, mk := range p.Marks {
		pt := sgfPoint(r, r.Transform(game.InverseSymmetry(sym), mk.Square))
		for id, shape := range markProps {
			if shape == mk.Shape {
				shapes[id] = append(shapes[id], pt)
			}
		}
		if mk.Text != "" {
			labels = append(labels, pt+":"+mk.Text)
		}
	}
	for _, id := range []string{"CR", "TR", "SQ", "MA", "SL"} {
		if len(shapes[id]) > 0 {
			n.Set(id, shapes[id]...)
		}
	}
	if len(labels) > 0 {
		n.Set("LB", labels...)
	}
	var xs []string
	for _, pr := range p.Proofs {
		if pr.Status == c6book.StatusUnknown {
			continue
		}
		xs = append(xs, pr.Attacker.String()+":"+pr.Status.String()+":"+strconv.Itoa(pr.Order))
		if pr.Status == c6book.StatusProved {
			if pr.Attacker == game.Black {
				n.Set("GB", "2")
			} else {
				n.Set("GW", "2")
			}
		}
	}
	if len(xs) > 0 {
		n.Set("XS", xs...)
	}
	return p, nil
}
