package jobqueue

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/engine/threat"
	"c6book/engine/verify"
)

// jobVersion is the jobSpec encoding's version (jobSpec.V). It names the
// result format too, since a worker answers only jobs of its version:
// version 2 results may be stored in parts (result.split) and hold
// verdicts of encoding version 2, which builds of version 1 do not read.
const jobVersion = 2

// jobSpec is one verifier job: a position in its canonical frame with the
// defender to move, and the options of the run. It travels as JSON (small,
// readable with `nats stream view`).
type jobSpec struct {
	V      int    `json:"v"`      // jobVersion
	Engine string `json:"engine"` // verify.EngineVersion of the caller
	Rules  string `json:"rules"`  // m,n,k,p,q
	Black  []int  `json:"black"`  // stones in the canonical frame
	White  []int  `json:"white"`
	ToMove int    `json:"to_move"` // the defender
	Lambda int    `json:"lambda"`
	Tol    int    `json:"tol"`
	// Limits of each solver call.
	MaxNodes int64 `json:"max_nodes,omitempty"`
	// TimeoutNS is Limits.Timeout in nanoseconds (a verdict made with a
	// timeout depends on the machine that ran it).
	TimeoutNS      int64 `json:"timeout_ns,omitempty"`
	MaxDepth       int   `json:"max_depth,omitempty"`
	Free           int   `json:"free,omitempty"`
	ExpandSeminull bool  `json:"expand_seminull,omitempty"`
	// SeminullItemFrom is VerifyOptions.SeminullItemFrom.
	SeminullItemFrom int `json:"seminull_item_from,omitempty"`
}

// newJob builds the job of verifying b with opts: b's canonical image (sym
// maps b onto it; a verdict on the job maps back with the inverse of sym).
// opts.Workers is not part of the job: each worker runs as many solver
// calls in parallel as it is configured to, which does not change the
// verdict.
func newJob(b *board.Board, opts verify.VerifyOptions) (jobSpec, int) {
	cb, sym := b.Canonical()
	r := b.Rules()
	j := jobSpec{
		V: jobVersion, Engine: verify.EngineVersion, Rules: r.String(),
		Black: squareInts(cb.StoneList(game.Black)), White: squareInts(cb.StoneList(game.White)),
		ToMove: int(cb.ToMove()), Lambda: opts.Lambda, Tol: opts.Tolerance,
		MaxNodes: opts.Limits.MaxNodes, TimeoutNS: int64(opts.Limits.Timeout), MaxDepth: opts.Limits.MaxDepth,
		Free: int(opts.Free), ExpandSeminull: opts.ExpandSeminull, SeminullItemFrom: opts.SeminullItemFrom,
	}
	if j.Lambda == 0 {
		j.Lambda = 2
	}
	return j, sym
}

func squareInts(sq []game.Square) []int {
	out := make([]int, len(sq))
	for i, s := range sq {
		out[i] = int(s)
	}
	return out
}

func intSquares(v []int) []game.Square {
	out := make([]game.Square, len(v))
	for i, s := range v {
		out[i] = game.Square(s)
	}
	return out
}

// encode is the job's message body.
func (j jobSpec) encode() []byte {
	data, err := json.Marshal(j)
	if err != nil { // a jobSpec holds only numbers and strings
		return nil
	}
	return data
}

// id is the job's id: a hash of its encoding, so that the same position
// (in any orientation) with the same options and engine is the same job.
// It names the job's message (Nats-Msg-Id), subject and result key.
func (j jobSpec) id() string {
	sum := sha256.Sum256(j.encode())
	return hex.EncodeToString(sum[:20])
}

// decodeJob reads a job message.
func decodeJob(data []byte) (jobSpec, error) {
	var j jobSpec
	if err := json.Unmarshal(data, &j); err != nil {
		return jobSpec{}, fmt.Errorf("%w: %v", errCorrupt, err)
	}
	return j, nil
}

// errIncompatible is returned for a job this build cannot run (another
// engine version, an encoding it does not read, rules it does not support).
var errIncompatible = errors.New("jobqueue: incompatible job")

// compatible reports whether this build can run j, and why not.
func (j jobSpec) compatible() error {
	if j.V != jobVersion {
		return fmt.Errorf("%w: job encoding %d, this worker reads %d", errIncompatible, j.V, jobVersion)
	}
	if j.Engine != verify.EngineVersion {
		return fmt.Errorf("%w: engine %q, this worker runs %q", errIncompatible, j.Engine, verify.EngineVersion)
	}
	r, err := game.ParseRules(j.Rules)
	if err != nil {
		return fmt.Errorf("%w: rules %q: %v", errIncompatible, j.Rules, err)
	}
	if r.P > 2 {
		return fmt.Errorf("%w: rules %s: %v", errIncompatible, r, threat.ErrUnsupported)
	}
	return nil
}

// board sets up the job's position (canonical frame) and its options.
func (j jobSpec) board() (*board.Board, verify.VerifyOptions, error) {
	r, err := game.ParseRules(j.Rules)
	if err != nil {
		return nil, verify.VerifyOptions{}, err
	}
	b, err := board.SetUp(r, intSquares(j.Black), intSquares(j.White), game.Color(j.ToMove))
	if err != nil {
		return nil, verify.VerifyOptions{}, err
	}
	return b, verify.VerifyOptions{
		Lambda: j.Lambda, Tolerance: j.Tol, Free: board.FreePolicy(j.Free), ExpandSeminull: j.ExpandSeminull,
		SeminullItemFrom: j.SeminullItemFrom,
		Limits:           threat.Limits{MaxNodes: j.MaxNodes, Timeout: time.Duration(j.TimeoutNS), MaxDepth: j.MaxDepth},
	}, nil
}
