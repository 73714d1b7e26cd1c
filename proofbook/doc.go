// Package proofbook is the SQLite store of opening trees, annotations and
// proofs: it persists (rows, transactions, migrations, the digest of the
// proof rows, integrity) and derives statuses with the root package's
// proof rules. It is the only package that runs SQL. The auto-pilot is
// package autopilot, which reaches the book through its Store interface
// (autostore.go here: the auto-pilot's rows and reads, no policy). The
// file formats are package bookfile and the copies between books
// (merge, split) package bookmerge; what they store and read is here
// (gamestore.go, transfer.go, copy.go: rows and transactions, no format).
// proofbook imports none of them.
//
// A book is one SQLite file (WAL, foreign keys, busy timeout, immediate
// write transactions, all set in the connection string; one writer
// connection and a small query-only read pool). Its schema is created by
// the embedded, numbered migrations in migrations/, versioned with
// PRAGMA user_version and marked with PRAGMA application_id; a file that
// is not a book, was written by a newer build or is damaged, is refused
// untouched, with nothing created beside it (the check reads the header,
// then asks SQLite through a read-only, immutable connection). A book whose
// file or folder cannot be written opens read-only (Book.ReadOnly says
// why); its writes return ErrReadOnly.
//
// Locks: an import commits at least every DefaultMaxTxTime (100 ms)
// whatever its batch, and leaves the lock free for a moment between
// transactions, so that another program's write waits well within the busy
// timeout; StoreVerdict, whose verdict may have cost minutes, retries past
// the busy timeout until it is stored or its context is done
// (writeRetry, the package's one retry policy).
//
// Positions are keyed by the canonical (symmetry-reduced) Zobrist key of
// board.Board.CanonicalKey, side to move included, with the canonical
// stone set stored to detect collisions. Moves are edges between positions,
// stored in the parent's canonical frame (the smallest image under the
// parent's own symmetries), so transpositions and mirrored lines share one
// node. Null and seminull moves (a defender turn of 0 or 1 stones) are
// edges too. Frames: a board b maps onto its position's canonical frame by
// the symmetry sym of b.CanonicalKey(); ToCanonical and FromCanonical map
// moves; Locate finds b's position and sym.
//
// API (every method takes a context.Context first):
//
//	Create(ctx, path, rules) (*Book, error)      Open(ctx, path) (*Book, error)
//	OpenWith(ctx, path, OpenOptions{ReadOnly, BusyTimeout}) (*Book, error)
//	(*Book) Close() error; Path() string; Rules() game.Rules; ReadOnly() string
//	(*Book) CheckWritable(ctx) error; Damaged() string   the write gate: no write to a book
//	                                             SQLite's quick_check reports damaged (ErrDamaged)
//	IsBusy(err) bool                             SQLite's "database is locked"
//	Root(ctx) (PosID, error)
//	Locate(ctx, b *board.Board) (PosID, sym int, error)   ErrNotFound if absent
//	Board(ctx, id) (*board.Board, error)        canonical frame
//	Position(ctx, id) (Position, error)          stones, comment, label, marks, proofs, verdict
//	Children(ctx, id) ([]Child, error)           moves (parent's canonical frame) with statuses and
//	                                             game counts, most played first, then by status (SortChildren)
//	Play(ctx, id, m) (PosID, error)              m in id's canonical frame; adds edge+node
//	PlayFrom(ctx, b, m) (PosID, error)           b and m in the caller's frame
//	RemoveMove(ctx, id, m) error                 undo of Play (drops an orphaned leaf); refuses a reply the
//	                                             position's verdict leaves to prove (c6book.ErrVerdictItem)
//	AddLine(ctx, turns) (Line, error)            a game from the empty board
//	SetComment(ctx, id, text) / SetLabel(ctx, id, label) / SetMarks(ctx, id, []Mark) error
//	SetDisproved(ctx, id, attacker, on) error    the expert's disproof (sticky)
//	Verify(ctx, id, verify.Verifier, opts, progress) (Verified, error)   the one verify-and-store path: c6book.VerifyBoard, then StoreVerdict
//	StoreVerdict(ctx, id, c6book.Verdict) (Stored, error)   re-checks the certificate (c6book Verdict.Check), adds the items as children, propagates; returns what it added
//	UndoVerdict(ctx, id, Stored) error           takes a StoreVerdict back: the verdict it replaced (or none),
//	                                             its new replies removed, propagated (c6book.ErrVerdictChanged: replaced since)
//	Items(ctx, id, attacker) ([]Item, error)     what a verdict still leaves to prove (incl. (s, x) of closed seminulls)
//	Next(ctx, from, attacker) (Line, error)      the most-proving position below from (pass the current position)
//	SetHold(ctx, id, attacker, on) / Held(ctx, id, attacker)   "leave to me": the auto-pilot skips it
//	Stuck(ctx, id, attacker) (c6book.StuckReason, error) why the auto-pilot cannot work there (held, dead end)
//	The auto-pilot's store (autopilot.Store, autostore.go): AutoNode(ctx, id, attacker), AutoMoves(ctx, id,
//	attacker), AutoParents(ctx, id), AutoVerdict(ctx, id), OpenItems(ctx, id, attacker, b, v),
//	ConfirmProof(ctx, id, attacker), CountStatus(ctx, attacker, status, minOrder), AddAutoMoves(ctx, id, moves, scores),
//	SetExhausted(ctx, id, cands)
//	OpenByPN(ctx, attacker, limit) ([]Ranked, error)
//	Proved(ctx, attacker, minOrder, limit) ([]Ranked, error)
//	Search(ctx, text, limit) ([]Hit, error)      full-text (FTS4) search in comments
//	Labeled(ctx, label, limit) ([]Hit, error)
//	PathsFromRoot(ctx, id, max) ([]Line, error)  turns in the empty board's frame
//	StableTurns(ctx, id) ([]game.Move, error)  the line from the root in the position's stable
//	StableLine(ctx, id) (Line, error)            display orientation (its first game's, else its first path's)
//	ShortLine(rules, turns, max) string          "… 7. k9l9 8. m10m11" for a list row
//	GameStatsOf(ctx, id) (c6book.GameStats, error)      games through a position, Black/White wins, unfinished
//	GamesThrough(ctx, id, GamesQuery) ([]c6book.GameInfo, total, error)  the games through a position, paged
//	Game(ctx, gid) (Game, error); FindGame(ctx, source, extID) (int64, error)  one game, turns as played
//	OrientTurns(rules, turns, b) ([]game.Move, bool)  a game's turns in the orientation of board b
//	OrientWritten(rules, written, b); WrittenText(rules, written)  the same keeping each turn's stone
//	                                             order as the record wrote it (Game.Written: "h12k11")
//	Stats(ctx) (Stats, error); Check(ctx) / CheckWithProgress(ctx, fn) (CheckReport, error); Backup(ctx, dst) error
//	UpgradeNote() string                         what opening changed (proofs without certificates turned open)
//	StoreGames(ctx, GameSource, ImportOptions) (ImportStats, error)  games in order, bounded transactions;
//	                                             OnProgress (the games file: bookfile.ImportGames)
//	WriteTree(ctx, func(*TreeTx) error)          one transaction walking the tree: Step, AddNote, AddGame
//	                                             (the SGF import: bookfile.ImportSGFReader)
//	Edges(ctx, id, attacker) ([]Edge, error)     stored moves, with the child's proof for attacker
//	ReadPositions / CopyPositions, StoredVerdict, SameVerdict, ExpertFlags, GamesToCopy, GameTurns
//	                                             what bookmerge's Merge and Split copy through
//
// Schema (migrations/0001–0010: user_version 10, one per migration file): meta (rules, root), position (key
// UNIQUE, canonical stones, side to move, stone count, winner, and the
// games through it: games, bwins, wwins), edge (parent, packed move,
// child; WITHOUT ROWID, index on child), game (id, source, ext id UNIQUE,
// leaf, length, result, turns as played), game_pos (position, game:
// every position each game reached, once; WITHOUT ROWID), note (comment, label, marks JSON; FTS4 index
// note_fts kept by triggers), status (per position and attacker: status,
// order, how, expert flag, pn, dn; indexed for the open list by pn and
// the proved list by order), verdict (latest per position, JSON),
// proof (named proofs: kept by the schema, no API reads them); verdict.cert holds the certificate and status.zone
// the relevance zone of a proved position (migration 0005).
// Game statistics (migration 0006, gamestats.go): written with each game in the transaction that stores
// it, so re-importing changes nothing; upgrading an older book rebuilds them from its stored games.
// autopilot_move (the auto-pilot's moves, by rank) and hold (positions left to the expert) come
// with migration 0007; proof_digest (the digest of the proof rows, to see a
// change made outside the program) with 0008; 0009 makes the orders true
// (a verdict's order is what its certificate supports, a proof's is
// derived); 0010 adds the player's score to each auto-pilot move and
// autopilot_exhausted (positions without further candidates), so that a run
// killed and started again continues with the numbers it had. Status
// propagation and proof numbers: status.go.
package proofbook

import _ "github.com/mattn/go-sqlite3" // the SQLite driver, registered as "sqlite3"
