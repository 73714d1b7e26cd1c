// Package bookfile holds the proof book's file formats: SGF in and out
// (ImportSGFReader, ExportSGF: games, collections and variations in the
// forms Connect6 programs write, every position's notes, marks and
// status), a position's proof as one SGF game (ExportProof), and
// LittleGolem's games file ({"gid": ["j10", "j11k10", ...]}, plain or
// gzip: ReadGames, ImportGames, checked whole within its limits and
// spooled before anything is stored).
//
// It reads and writes the book only through proofbook's exported methods
// (WriteTree for the SGF import's one transaction, StoreGames for the
// games, Position, Children, Edges and PathsFromRoot for the exports): no
// SQL here. It may import the root package, engine, proofbook and
// internal/idset (docs/ARCHITECTURE.md); proofbook does not import it.
// Results are typed (proofbook.ImportStats, ExportStats,
// ProofExportStats); the only English it writes is in error messages and
// in the SGF it exports (comments a reader of the file sees).
package bookfile
