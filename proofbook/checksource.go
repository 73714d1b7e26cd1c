package proofbook

import (
	"context"

	"c6book"
	"c6book/engine/game"
	"c6book/proofcheck"
)

// checkSource shows the book to proofcheck.CheckBook: stones, stored moves,
// certificates and status claims, each in its position's canonical frame.
// It reads only; the checker derives everything else itself. With checked
// (Prove's closing check), a certificate whose stored bytes this process
// checked before storing them comes with that check's result
// (proofcheck.Node.Checked).
type checkSource struct {
	bk      *Book
	checked *checkedCerts
}

func (s *checkSource) Rules() game.Rules { return s.bk.rules }

func (s *checkSource) Node(ctx context.Context, id int64) (*proofcheck.Node, error) {
	bk := s.bk
	list, tm, err := loadPos(ctx, bk.r, bk.rules, PosID(id))
	if err != nil {
		return nil, err
	}
	n := &proofcheck.Node{ID: id, ToMove: tm}
	for _, st := range list {
		if st.c == game.Black {
			n.Black = append(n.Black, st.sq)
		} else {
			n.White = append(n.White, st.sq)
		}
	}
	rows, err := bk.r.QueryContext(ctx, "SELECT move, child FROM edge WHERE parent = ? ORDER BY move", id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var mv, child int64
		if err := rows.Scan(&mv, &child); err != nil {
			return nil, err
		}
		m, err := unpackMove(mv)
		if err != nil {
			return nil, err
		}
		n.Edges = append(n.Edges, proofcheck.Edge{Move: m, Child: child})
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	twins, err := storedTwins(ctx, bk.r, PosID(id))
	if err != nil {
		return nil, err
	}
	for _, tw := range twins {
		n.Twins = append(n.Twins, proofcheck.Twin{Stone: tw.Stone, ID: int64(tw.ID)})
	}
	v, raw, err := loadVerdictRaw(ctx, bk.r, PosID(id))
	if err != nil {
		return nil, err
	}
	if v != nil {
		n.Cert = v.Cert
		n.Checked = s.checked.lookup(PosID(id), raw)
	}
	for a := game.Black; a <= game.White; a++ {
		pr, _, err := readProof(ctx, bk.r, bk.rules, PosID(id), a)
		if err != nil {
			return nil, err
		}
		n.Claims[a-1] = proofcheck.Claim{Proved: pr.Status == c6book.StatusProved, Zone: pr.Zone, HasZone: pr.Zone != nil,
			Order: pr.Order, HasOrder: true}
	}
	return n, nil
}
