package proofbook

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"c6book/engine"
)

// SGF: LittleGolem-style games (B[j10], W[j11k10], RU[m,n,k,p,q] or SZ),
// single games or collections, with variations. Comments (C), node names
// (N, the user label) and marks (CR, TR, SQ, MA, SL, LB) are imported too.
// The export adds the status of each node: GB[2]/GW[2] ("good for") when
// proved for Black/White, and the private property XS with one value per
// attacker holding a status, "B:proved:2" (attacker, status, order).

var markProps = map[string]string{"CR": "circle", "TR": "triangle", "SQ": "square", "MA": "cross", "SL": "select"}

func sgfPoint(r engine.Rules, s engine.Square) string {
	x, y := r.XY(s)
	return string([]byte{byte('a' + x), byte('a' + r.N - 1 - y)})
}

func parseSGFPoint(r engine.Rules, v string) (engine.Square, error) {
	if len(v) == 2 && v[0] >= 'a' && v[1] >= 'a' {
		x, y := int(v[0]-'a'), r.N-1-int(v[1]-'a')
		if r.OnBoard(x, y) {
			return r.Sq(x, y), nil
		}
	}
	if s, err := engine.ParseSquare(r, v); err == nil {
		return s, nil
	}
	return engine.NoSquare, fmt.Errorf("bad point %q", v)
}

// nodeMarks reads the marks of an SGF node (in the board's frame).
func nodeMarks(r engine.Rules, n *engine.SGFNode) ([]Mark, error) {
	var out []Mark
	for _, p := range n.Props {
		if shape, ok := markProps[p.ID]; ok {
			for _, v := range p.Values {
				// One point, or a compressed point list ("aa:cc").
				sqs, err := engine.SGFPoints(r, v)
				if err != nil {
					return nil, fmt.Errorf("%s: %w", p.ID, err)
				}
				for _, s := range sqs {
					out = append(out, Mark{Square: s, Shape: shape})
				}
			}
		}
		if p.ID == "LB" {
			for _, v := range p.Values {
				pt, text, ok := strings.Cut(v, ":")
				if !ok {
					return nil, fmt.Errorf("LB[%s]: want point:text", v)
				}
				s, err := parseSGFPoint(r, pt)
				if err != nil {
					return nil, fmt.Errorf("LB: %w", err)
				}
				out = append(out, Mark{Square: s, Text: text})
			}
		}
	}
	return out, nil
}

// ImportSGF merges the games (and their variations) of an SGF collection
// into the book, in one transaction: on any error nothing is written. A
// game record (a root with RE, PB or PW) also counts its main line as a
// game in the statistics, once whatever the number of imports.
func (bk *Book) ImportSGF(ctx context.Context, data string) (ImportStats, error) {
	var st ImportStats
	roots, err := engine.ParseSGF(data)
	if err != nil {
		return st, err
	}
	err = bk.write(ctx, func(tx *sql.Tx) error {
		w, err := bk.newWtx(ctx, tx)
		if err != nil {
			return err
		}
		for gi, root := range roots {
			r, err := engine.SGFRules(root, bk.rules)
			if err != nil {
				return fmt.Errorf("game %d: %w", gi+1, err)
			}
			if r != bk.rules {
				return fmt.Errorf("game %d: rules %s, the book's are %s", gi+1, r, bk.rules)
			}
			b := bk.tmpl.Clone()
			if err := w.importNode(ctx, b, node{id: bk.root}, root, 0); err != nil {
				return fmt.Errorf("game %d: %w", gi+1, err)
			}
			if err := w.recordSGFGame(ctx, root, &st); err != nil {
				return fmt.Errorf("game %d: %w", gi+1, err)
			}
			st.Games++
		}
		st.Positions, st.Edges = w.added, w.edges
		return w.finish(ctx)
	})
	if err != nil {
		return ImportStats{}, err
	}
	return st, nil
}

// SGFGameSource is the game source of the game records an SGF import
// stores; their id is a digest of the turns (see recordSGFGame).
const SGFGameSource = "sgf"

// recordSGFGame stores the main line (first variation) of an SGF game
// tree as a game for the statistics when the tree is a game record: its
// root says who played (PB, PW) or how it ended (RE). An opening tree
// without them (as ExportSGF writes) adds no game. The game's id is a
// digest of its turns and result, so importing the same record again (from
// any file) changes nothing. Its result is the winner on the board at the
// end of the line, else RE's ("B+…", "W+…"), else unfinished.
func (w *wtx) recordSGFGame(ctx context.Context, root *engine.SGFNode, st *ImportStats) error {
	re, hasRE := root.Get("RE")
	_, pb := root.Get("PB")
	_, pw := root.Get("PW")
	if !hasRE && !pb && !pw {
		return nil
	}
	r := w.bk.rules
	b := w.bk.tmpl.Clone()
	cur := node{id: w.bk.root}
	path := []PosID{cur.id}
	var turns []engine.Move
	for n := root; n != nil; {
		_, m, ok, err := engine.SGFMove(r, n)
		if err != nil {
			return err
		}
		if ok {
			if cur, err = w.step(ctx, b, cur, m, true); err != nil {
				return err
			}
			path = append(path, cur.id)
			turns = append(turns, m)
		}
		if len(n.Children) == 0 {
			break
		}
		n = n.Children[0]
	}
	if len(turns) == 0 {
		return nil
	}
	result := b.Winner()
	if re = strings.ToUpper(strings.TrimSpace(re)); result == engine.Empty {
		switch {
		case strings.HasPrefix(re, "B+"):
			result = engine.Black
		case strings.HasPrefix(re, "W+"):
			result = engine.White
		}
	}
	sum := sha256.Sum256(append(encodeTurns(turns), byte(result)))
	ext := hex.EncodeToString(sum[:12])
	var known int
	if err := w.tx.QueryRowContext(ctx, "SELECT count(*) FROM game WHERE source = ? AND ext_id = ?", SGFGameSource, ext).Scan(&known); err != nil {
		return err
	}
	if known > 0 {
		st.Already++
		return nil
	}
	if err := w.addGame(ctx, SGFGameSource, ext, path, turns, result); err != nil {
		return err
	}
	st.Recorded++
	return nil
}

const maxSGFDepth = 2000

func (w *wtx) importNode(ctx context.Context, b *engine.Board, cur node, n *engine.SGFNode, depth int) error {
	r := w.bk.rules
	if depth > maxSGFDepth {
		return fmt.Errorf("variation deeper than %d nodes", maxSGFDepth)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if id := engine.SGFSetupProp(n); id != "" {
		return fmt.Errorf("node %d: set-up stones (%s) are not supported; games must be played from the empty board", depth, id)
	}
	played := false
	c, m, ok, err := engine.SGFMove(r, n)
	if err != nil {
		return fmt.Errorf("node %d: %w", depth, err)
	}
	if ok {
		if c != b.ToMove() {
			return fmt.Errorf("node %d: %s to move, but the node plays %s", depth, b.ToMove(), c)
		}
		next, err := w.step(ctx, b, cur, m, true)
		if err != nil {
			return fmt.Errorf("node %d: %s: %w", depth, engine.MoveName(r, m), err)
		}
		cur, played = next, true
	}
	if err := w.mergeNote(ctx, cur, n); err != nil {
		return fmt.Errorf("node %d: %w", depth, err)
	}
	for _, ch := range n.Children {
		if err := w.importNode(ctx, b, cur, ch, depth+1); err != nil {
			return err
		}
	}
	if played {
		return b.Undo()
	}
	return nil
}

// mergeNote adds an SGF node's comment, name and marks to the position's
// note without losing what is there; importing the same text again
// changes nothing.
func (w *wtx) mergeNote(ctx context.Context, cur node, n *engine.SGFNode) error {
	r := w.bk.rules
	comment, _ := n.Get("C")
	label, _ := n.Get("N")
	comment, label = strings.TrimSpace(comment), strings.TrimSpace(label)
	marks, err := nodeMarks(r, n)
	if err != nil {
		return err
	}
	if comment == "" && label == "" && len(marks) == 0 {
		return nil
	}
	for i := range marks {
		marks[i].Square = r.Transform(cur.sym, marks[i].Square)
	}
	var oc, ol, om string
	err = w.tx.QueryRowContext(ctx, "SELECT comment, label, marks FROM note WHERE pos = ?", int64(cur.id)).Scan(&oc, &ol, &om)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return err
	}
	nc, nl := oc, ol
	if comment != "" && !strings.Contains(oc, comment) {
		if nc != "" {
			nc += "\n\n"
		}
		nc += comment
	}
	if nl == "" {
		nl = label
	}
	var old []Mark
	if om != "" {
		if err := json.Unmarshal([]byte(om), &old); err != nil {
			return fmt.Errorf("stored marks: %w", err)
		}
	}
	merged := old
	for _, mk := range marks {
		dup := false
		for _, o := range old {
			if o == mk {
				dup = true
				break
			}
		}
		if !dup {
			merged = append(merged, mk)
		}
	}
	nm := om
	if len(merged) != len(old) {
		data, err := json.Marshal(merged)
		if err != nil {
			return err
		}
		nm = string(data)
	}
	if nc == oc && nl == ol && nm == om {
		return nil
	}
	_, err = w.tx.ExecContext(ctx, `INSERT INTO note(pos, comment, label, marks, updated_at) VALUES (?, ?, ?, ?, ?)
ON CONFLICT(pos) DO UPDATE SET comment = excluded.comment, label = excluded.label, marks = excluded.marks, updated_at = excluded.updated_at`,
		int64(cur.id), nc, nl, nm, w.now)
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
	Line []engine.Move
	// Progress, when not nil, is called with the number of moves exported
	// so far, every 1000 moves (on the exporting goroutine).
	Progress func(nodes int)
}

// ExportStats says what an export wrote.
type ExportStats struct {
	Nodes int // moves written below the exported position
	// Truncated: MaxNodes stopped the export before every stored move
	// below the position was written. The SGF says so in the root's game
	// comment (GC, which an import does not take as a position's note).
	Truncated bool
}

// ExportSGF writes one SGF game: the main line from the empty board to
// position id, then id's whole subtree as variations. A position reached
// again by a transposition is written once with its subtree; later
// occurrences are leaves marked XT[1].
func (bk *Book) ExportSGF(ctx context.Context, id PosID, out io.Writer, opts ExportOptions) (ExportStats, error) {
	var st ExportStats
	if opts.MaxNodes < 0 {
		return st, fmt.Errorf("export: at most %d nodes: want 0 (no limit) or more", opts.MaxNodes)
	}
	if opts.MaxDepth < 0 {
		return st, fmt.Errorf("export: depth %d: want 0 (no limit) or more", opts.MaxDepth)
	}
	r := bk.rules
	var line Line
	if opts.Line != nil {
		l, err := bk.locateLine(ctx, opts.Line)
		if err != nil {
			return st, err
		}
		switch last := l.IDs[len(l.IDs)-1]; {
		case last == 0:
			return st, fmt.Errorf("export: the line %q: %w", engine.FormatTurns(r, opts.Line), ErrNotFound)
		case last != id:
			return st, fmt.Errorf("export: the line %q leads to position %d, not %d", engine.FormatTurns(r, opts.Line), last, id)
		}
		line = l
	} else {
		lines, err := bk.PathsFromRoot(ctx, id, 1)
		if err != nil {
			return st, err
		}
		if len(lines) == 0 {
			return st, fmt.Errorf("position %d: no path from the root", id)
		}
		line = lines[0]
	}
	// Unchecked proofs are written as such (once for the whole export).
	mask, err := bk.proofMask(ctx)
	if err != nil {
		return st, err
	}
	root := &engine.SGFNode{Props: []engine.SGFProp{
		{ID: "FF", Values: []string{"4"}}, {ID: "SZ", Values: []string{engine.SGFSizeValue(r)}},
		{ID: "RU", Values: []string{r.String()}}, {ID: "AP", Values: []string{"c6book"}},
	}}
	b := bk.tmpl.Clone()
	if err := bk.annotate(ctx, root, line.IDs[0], b, mask); err != nil {
		return st, err
	}
	cur := root
	for i, m := range line.Turns {
		c := b.ToMove()
		if err := b.PlayPartial(m); err != nil {
			return st, fmt.Errorf("line to position %d, turn %d: %w", id, i+1, err)
		}
		n := &engine.SGFNode{Props: []engine.SGFProp{{ID: c.String(), Values: []string{engine.SGFMoveValue(r, m)}}}}
		if i < len(line.Turns)-1 && line.IDs[i+1] != 0 {
			if err := bk.annotate(ctx, n, line.IDs[i+1], b, mask); err != nil {
				return st, err
			}
		}
		cur.Children = []*engine.SGFNode{n}
		cur = n
	}
	seen := map[PosID]bool{}
	count := 0
	var expand func(n *engine.SGFNode, pid PosID, depth int) error
	expand = func(n *engine.SGFNode, pid PosID, depth int) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := bk.annotate(ctx, n, pid, b, mask); err != nil {
			return err
		}
		if seen[pid] {
			n.Set("XT", "1")
			return nil
		}
		seen[pid] = true
		if opts.MaxDepth > 0 && depth >= opts.MaxDepth {
			return nil
		}
		kids, err := bk.Children(ctx, pid)
		if err != nil {
			return err
		}
		_, sym := b.CanonicalKey()
		for _, k := range kids {
			if opts.MaxNodes > 0 && count >= opts.MaxNodes {
				st.Truncated = true
				return nil
			}
			count++
			if opts.Progress != nil && count%1000 == 0 {
				opts.Progress(count)
			}
			m := FromCanonical(r, sym, k.Move)
			c := b.ToMove()
			if err := b.PlayPartial(m); err != nil {
				return fmt.Errorf("stored move %s of position %d: %w", engine.MoveName(r, k.Move), pid, err)
			}
			ch := &engine.SGFNode{Props: []engine.SGFProp{{ID: c.String(), Values: []string{engine.SGFMoveValue(r, m)}}}}
			n.Children = append(n.Children, ch)
			err := expand(ch, k.ID, depth+1)
			if uerr := b.Undo(); err == nil {
				err = uerr
			}
			if err != nil {
				return err
			}
		}
		return nil
	}
	if err := expand(cur, id, 0); err != nil {
		return st, err
	}
	st.Nodes = count
	if st.Truncated {
		root.Set("GC", fmt.Sprintf("c6book: export truncated at %d moves below the exported position; the book stores more", opts.MaxNodes))
	}
	_, err = io.WriteString(out, engine.WriteSGF(root))
	return st, err
}

// locateLine finds the positions of a line from the empty board (a turn
// with fewer stones than the rules place is a null or seminull move); the
// id of a position not in the book is 0.
func (bk *Book) locateLine(ctx context.Context, turns []engine.Move) (Line, error) {
	r := bk.rules
	b := bk.tmpl.Clone()
	line := Line{Turns: turns, IDs: []PosID{bk.root}}
	for i, m := range turns {
		if err := b.PlayPartial(m); err != nil {
			return Line{}, fmt.Errorf("line turn %d (%s): %w", i+1, engine.MoveName(r, m), err)
		}
		id, _, err := bk.Locate(ctx, b)
		if err != nil && !errors.Is(err, ErrNotFound) {
			return Line{}, err
		}
		line.IDs = append(line.IDs, id)
	}
	return line, nil
}

// annotate writes position pid's comment, label, marks and status onto SGF
// node n; b is the board at n (its frame maps the stored marks).
func (bk *Book) annotate(ctx context.Context, n *engine.SGFNode, pid PosID, b *engine.Board, mask func(*Proof)) error {
	r := bk.rules
	p, err := bk.position(ctx, pid, mask)
	if err != nil {
		return err
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
		pt := sgfPoint(r, r.Transform(engine.InverseSymmetry(sym), mk.Square))
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
		if pr.Status == StatusUnknown {
			continue
		}
		xs = append(xs, pr.Attacker.String()+":"+pr.Status.String()+":"+strconv.Itoa(pr.Order))
		if pr.Status == StatusProved {
			if pr.Attacker == engine.Black {
				n.Set("GB", "2")
			} else {
				n.Set("GW", "2")
			}
		}
	}
	if len(xs) > 0 {
		n.Set("XS", xs...)
	}
	return nil
}
