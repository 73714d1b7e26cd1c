package session

// NoCandidates is why Suggest gave no candidate for a position: said by
// the engine's answer (or its end), never guessed by the view.
type NoCandidates string

// Why Suggest gave no candidate.
const (
	noCandNoThreat  NoCandidates = "no-threat" // the candidate search found no move that makes a threat
	noCandNoMove    NoCandidates = "no-move"   // the player returned no move (no legal move, or none searched in time)
	noCandCancelled NoCandidates = "cancelled" // Stop before the engine answered
	noCandError     NoCandidates = "error"     // the engine failed (the error was reported)
)

// Text says why, for people.
func (n NoCandidates) Text() string {
	switch n {
	case noCandNoThreat:
		return "The candidate search found no attacker move that makes a threat here."
	case noCandNoMove:
		return "The engine's player returned no move: it has no legal move, or its budget ended before it searched one."
	case noCandCancelled:
		return "Stopped before the engine answered: no candidate."
	case noCandError:
		return "The engine failed: no candidate."
	}
	return string(n)
}

// NoCandidates says why the last Suggest on the shown position gave no
// candidate (ok false when it gave some, or none was asked for it).
func (p *Prover) NoCandidates() (why NoCandidates, ok bool) {
	cs, asked := p.Candidates()
	if !asked || len(cs) > 0 || p.candsWhy == "" {
		return "", false
	}
	return p.candsWhy, true
}

// setCandidates records Suggest's answer for the position key: the
// candidates, or (none) why there are none.
func (p *Prover) setCandidates(cs []Candidate, key posKey, why NoCandidates) {
	p.cands, p.candsKey, p.candsValid = cs, key, true
	p.candsWhy = ""
	if len(cs) == 0 {
		p.candsWhy = why
	}
}
