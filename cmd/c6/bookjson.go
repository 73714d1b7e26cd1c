package main

import (
	"c6book"
	"c6book/proofbook"
	"c6book/service"
)

// The --json outputs of the book subcommands. Their fields are in the
// order of their JSON names (sorted): the order these objects have always
// been printed in (TestBookJSONKeysSorted keeps it so).

// bookInitJSON is c6 book init --json.
type bookInitJSON struct {
	Book  string `json:"book"`
	Rules string `json:"rules"`
}

// bookImportJSON is c6 book import --json: one entry per file.
type bookImportJSON struct {
	Files []importFileJSON `json:"files"`
}

// importFileJSON is what one SGF file added.
type importFileJSON struct {
	File      string `json:"file"`
	Games     int    `json:"games"`
	Positions int    `json:"positions"`
	Moves     int    `json:"moves"`
	Recorded  int    `json:"game_records"` // counted in the statistics
}

// bookImportGamesJSON is c6 book import-games --json.
type bookImportGamesJSON struct {
	Already         int                          `json:"already"`
	Games           int                          `json:"games"`
	LongestTxMS     int64                        `json:"longest_tx_ms"`
	Moves           int                          `json:"moves"`
	MS              int64                        `json:"ms"`
	Positions       int                          `json:"positions"`
	Repaired        int                          `json:"repaired"`
	Skipped         int                          `json:"skipped"`
	SkippedByReason map[proofbook.SkipReason]int `json:"skipped_by_reason"`
	SkippedGames    []skipJSON                   `json:"skipped_games"`
	Transactions    int                          `json:"transactions"`
}

// skipJSON is one skipped game (id and error cut to one short line).
type skipJSON struct {
	ID     string               `json:"id"`
	Reason proofbook.SkipReason `json:"reason"`
	Error  string               `json:"error"`
}

// bookExportJSON is c6 book export --json (or with --out): sgf holds the
// SGF when it is not written to --out.
type bookExportJSON struct {
	ID        int64   `json:"id"`
	Nodes     int     `json:"nodes"`
	Out       *string `json:"out,omitempty"`
	SGF       *string `json:"sgf,omitempty"`
	Truncated bool    `json:"truncated"`
}

// byColor is a count for each attacker.
type byColor struct {
	B int64 `json:"B"`
	W int64 `json:"W"`
}

// byColorOrder is a count by λ order (0..3) for each attacker.
type byColorOrder struct {
	B [4]int64 `json:"B"`
	W [4]int64 `json:"W"`
}

// bookStatsJSON is c6 book stats --json.
type bookStatsJSON struct {
	Bytes         int64        `json:"bytes"`
	Disproved     byColor      `json:"disproved"`
	Games         int64        `json:"games"`
	Moves         int64        `json:"moves"`
	Notes         int64        `json:"notes"`
	Open          byColor      `json:"open"`
	Positions     int64        `json:"positions"`
	ProofsChecked bool         `json:"proofs_checked"`
	Proved        byColor      `json:"proved"`
	ProvedByOrder byColorOrder `json:"proved_by_order"`
	Rules         string       `json:"rules"`
	Schema        int          `json:"schema"`
	Unchecked     byColor      `json:"unchecked"`
	Verdicts      int64        `json:"verdicts"`
}

// bookShowJSON is c6 book show --json; open_items, unsolved_why and
// verdict are there when the position has a verdict.
type bookShowJSON struct {
	Black         string          `json:"black"`
	Children      []childJSON     `json:"children"`
	Comment       string          `json:"comment"`
	Games         gameStatsJSON   `json:"games"`
	ID            int64           `json:"id"`
	Label         string          `json:"label"`
	OpenItems     *[]string       `json:"open_items,omitempty"`
	Proof         *proofJSON      `json:"proof,omitempty"` // --proof (book_show_proof.go)
	ProofsChecked bool            `json:"proofs_checked"`
	ToMove        string          `json:"to_move"`
	Twins         []twinJSON      `json:"twins,omitempty"`
	UnsolvedWhy   *[]unsolvedJSON `json:"unsolved_why,omitempty"`
	Verdict       *verdictJSON    `json:"verdict,omitempty"`
	White         string          `json:"white"`
}

// twinJSON is a stored twin of book show: the position less the stone
// Without (named in the orientation of --turns), its id, statuses and its
// line: --turns without that stone (its turn one stone short), in the
// same orientation.
type twinJSON struct {
	Without string `json:"without"`
	ID      int64  `json:"id"`
	Black   string `json:"black"`
	White   string `json:"white"`
	Turns   string `json:"turns"`
}

// childJSON is one reply of book show, named in the orientation of --turns.
type childJSON struct {
	Move  string        `json:"move"`
	ID    int64         `json:"id"`
	Games gameStatsJSON `json:"games"`
	Black string        `json:"black"`
	White string        `json:"white"`
	Label string        `json:"label,omitempty"`
}

// bookGameJSON is c6 book games --game N --json: one game's turns.
type bookGameJSON struct {
	ExtID  string `json:"ext_id"`
	Game   int64  `json:"game"`
	Length int    `json:"length"`
	Result string `json:"result"`
	Source string `json:"source"`
	Turns  string `json:"turns"`
}

// bookGamesJSON is c6 book games --json: a page of the games through a
// position.
type bookGamesJSON struct {
	Games  []gameJSON    `json:"games"`
	ID     int64         `json:"id"`
	Offset int           `json:"offset"`
	Stats  gameStatsJSON `json:"stats"`
	Total  int64         `json:"total"`
}

// gameJSON is one game of a book games page.
type gameJSON struct {
	Game   int64  `json:"game"`
	Source string `json:"source"`
	ExtID  string `json:"ext_id"`
	Length int    `json:"length"`
	Result string `json:"result"`
}

// bookAnnotateJSON is c6 book annotate --json.
type bookAnnotateJSON struct {
	ID      int64 `json:"id"`
	Updated bool  `json:"updated"`
}

// bookVerifyJSON is c6 book verify --json.
type bookVerifyJSON struct {
	BookStatus  c6book.Status  `json:"book_status"`
	ID          int64          `json:"id"`
	OpenItems   []string       `json:"open_items"`
	UnsolvedWhy []unsolvedJSON `json:"unsolved_why"`
	Verdict     verdictJSON    `json:"verdict"`
}

// bookProveJSON is c6 book prove --json.
// familyJSON is the seminull family jobs of a prove run: jobs, their
// verifier calls (stored verdicts) and the positions they proved.
type familyJSON struct {
	Calls  int `json:"calls"`
	Jobs   int `json:"jobs"`
	Proved int `json:"proved"`
}

// learnJSON is what a prove run learned: the shapes its table holds
// (those that proved), the candidates it put first for their shape, and
// the expansions that tried sibling moves before asking the player.
type learnJSON struct {
	Postponed    int `json:"postponed"`
	Promoted     int `json:"promoted"`
	Shapes       int `json:"shapes"`
	ShapesProved int `json:"shapes_proved"`
}

type bookProveJSON struct {
	Added int `json:"added"`
	// Again counts the verifications of a position verified before in
	// the run (at a larger node budget).
	Again    int    `json:"again"`
	Attacker string `json:"attacker"`
	// BookProved is the book's positions proved for the attacker at the
	// end of the run.
	BookProved int   `json:"book_proved"`
	Calls      int   `json:"calls"`
	DN         int64 `json:"dn"`
	Expansions int   `json:"expansions"`
	// Family is the seminull family jobs (each counted once in calls).
	Family familyJSON `json:"family"`
	// Finishing counts the jobs the finishing rule chose (--finish).
	Finishing int            `json:"finishing"`
	Frontier  []frontierJSON `json:"frontier"`
	// Held is the positions the search held at the end (its cache of the
	// tree), MaxHeld the most it held at once.
	Held    int       `json:"held"`
	ID      int64     `json:"id"`
	Learn   learnJSON `json:"learn"`
	MaxHeld int       `json:"max_held"`
	Nodes   int       `json:"nodes"`
	Open    int       `json:"open"`
	Order   int       `json:"order"`
	PN      int64     `json:"pn"`
	// Proved counts the positions proved during the run: book_proved less
	// the book's count at the start (it was formerly
	// the search tree's proved nodes, now search_proved). ProvedDuringRun
	// is the same count under a name that says so.
	Proved          int       `json:"proved"`
	ProvedDuringRun int       `json:"proved_during_run"`
	Queue           queueJSON `json:"queue"`
	Refused         []string  `json:"refused"`
	Result          string    `json:"result"`
	// Schedule is the node budgets of a position's verifications in turn
	// (--first-nodes, ×4, up to --max-nodes) with the calls stored at
	// each.
	Schedule []budgetJSON `json:"schedule"`
	// SearchProved counts the search tree's nodes proved as the search
	// last saw them (a proved node's subtree is not looked at again).
	SearchProved int     `json:"search_proved"`
	Seconds      float64 `json:"seconds"`
	Status       string  `json:"status"`
}

// budgetJSON is one node budget of a prove run's schedule.
type budgetJSON struct {
	Nodes int64 `json:"nodes"`
	Calls int   `json:"calls"`
}

// frontierJSON is one open position of a prove run's frontier.
type frontierJSON struct {
	ID    int64  `json:"id"`
	Turns string `json:"turns"`
	PN    int64  `json:"pn"`
	DN    int64  `json:"dn"`
	Why   string `json:"why"` // frontierWhy
}

// bookNextJSON is c6 book next --json.
type bookNextJSON struct {
	AutoPilotStuck []stuckJSON   `json:"auto_pilot_stuck"`
	DN             int64         `json:"dn"`
	ID             int64         `json:"id"`
	PN             int64         `json:"pn"`
	Status         c6book.Status `json:"status"`
	ToMove         string        `json:"to_move"`
	Turns          string        `json:"turns"`
}

// stuckJSON is a position of next's line where the auto-pilot is stuck:
// why is "held" or "dead end" (proofbook.Book.Stuck).
type stuckJSON struct {
	ID  int64              `json:"id"`
	Why c6book.StuckReason `json:"why"`
}

// bookOpenJSON is c6 book open --json; other counts the other attacker's
// positions when the list is empty.
type bookOpenJSON struct {
	Attacker      string      `json:"attacker"`
	Other         *otherJSON  `json:"other,omitempty"`
	Positions     []entryJSON `json:"positions"`
	ProofsChecked bool        `json:"proofs_checked"`
	Proved        bool        `json:"proved"`
}

// otherJSON is how many positions the other attacker has.
type otherJSON struct {
	Attacker string `json:"attacker"`
	Count    int64  `json:"count"`
}

// entryJSON is one position of book open, with its line from the root.
type entryJSON struct {
	ID     int64         `json:"id"`
	Status c6book.Status `json:"status"`
	Order  int           `json:"order"`
	PN     int64         `json:"pn"`
	DN     int64         `json:"dn"`
	Label  string        `json:"label,omitempty"`
	Turns  string        `json:"turns"`
}

// bookSearchJSON is c6 book search --json.
type bookSearchJSON struct {
	Hits []hitJSON `json:"hits"`
	Text string    `json:"text"`
}

// hitJSON is one position book search found.
type hitJSON struct {
	ID      int64  `json:"id"`
	Comment string `json:"comment"`
	Label   string `json:"label,omitempty"`
	Stones  int    `json:"stones"`
	Black   string `json:"black"`
	White   string `json:"white"`
	Turns   string `json:"turns"`
}

// bookCheckJSON is c6 book check --json.
type bookCheckJSON struct {
	DigestRecorded  bool     `json:"digest_recorded"`
	Moves           int64    `json:"moves"`
	OK              bool     `json:"ok"`
	OutsideChange   bool     `json:"outside_change"`
	Positions       int64    `json:"positions"`
	Problems        []string `json:"problems"`
	ProofsRechecked int64    `json:"proofs_rechecked"`
	Proved          int64    `json:"proved"`
	Seconds         float64  `json:"seconds"`
	Statuses        int64    `json:"statuses"`
}

// bookBackupJSON is c6 book backup --json.
type bookBackupJSON struct {
	Backup string `json:"backup"`
}

// bookMergeJSON is c6 book merge --json.
type bookMergeJSON struct {
	From    string    `json:"from"`
	MS      int64     `json:"ms"`
	Summary mergeJSON `json:"summary"`
}

// bookSplitJSON is c6 book split --json.
type bookSplitJSON struct {
	MS      int64     `json:"ms"`
	Summary mergeJSON `json:"summary"`
	To      string    `json:"to"`
}

// mergeJSON is what a merge or split added (service.MergeSummary).
type mergeJSON struct {
	AutoMoves         int           `json:"auto_moves"`
	BadMoves          int           `json:"bad_moves"`
	BadPositions      int           `json:"bad_positions"`
	Disproofs         int           `json:"disproofs"`
	FirstBad          string        `json:"first_bad"`
	Games             int           `json:"games"`
	GamesAlready      int           `json:"games_already"`
	GamesSkipped      int           `json:"games_skipped"`
	GamesWithoutTurns int           `json:"games_without_turns"`
	Holds             int           `json:"holds"`
	Moves             int           `json:"moves"`
	Notes             int           `json:"notes"`
	Positions         int           `json:"positions"`
	Refused           []refusedJSON `json:"refused"`
	RefusedCount      int           `json:"refused_count"`
	Transactions      int           `json:"transactions"`
	Uncertified       int           `json:"uncertified"`
	Verdicts          int           `json:"verdicts"`
	VerdictsAlready   int           `json:"verdicts_already"`
	VerdictsKept      int           `json:"verdicts_kept"`
}

// refusedJSON is a verdict a merge refused.
type refusedJSON struct {
	Attacker string `json:"attacker"`
	Line     string `json:"line"`
	Reason   string `json:"reason"`
}

func mergeSummaryJSON(s service.MergeSummary) mergeJSON {
	out := mergeJSON{AutoMoves: s.AutoMoves, BadMoves: s.BadMoves, BadPositions: s.BadPositions, Disproofs: s.Disproofs, FirstBad: s.FirstBad,
		Games: s.Games, GamesAlready: s.GamesAlready, GamesSkipped: s.GamesSkipped, GamesWithoutTurns: s.GamesNoTurns,
		Holds: s.Holds, Moves: s.Moves, Notes: s.Notes, Positions: s.Positions, Refused: []refusedJSON{},
		RefusedCount: s.RefusedCount, Transactions: s.Transactions, Uncertified: s.Uncertified, Verdicts: s.Verdicts,
		VerdictsAlready: s.VerdictsAlready, VerdictsKept: s.VerdictsKept}
	for _, r := range s.Refused {
		out.Refused = append(out.Refused, refusedJSON{Attacker: r.Attacker.String(), Line: r.Line(), Reason: r.Reason()})
	}
	return out
}

// bookExportProofJSON is c6 book export-proof --json (the SGF inline, or
// the file it was written to).
type bookExportProofJSON struct {
	Attacker  string  `json:"attacker"`
	ID        int64   `json:"id"`
	Leaves    int     `json:"leaves"`
	Nodes     int     `json:"nodes"`
	Out       *string `json:"out,omitempty"`
	SGF       *string `json:"sgf,omitempty"`
	Truncated bool    `json:"truncated"`
}
