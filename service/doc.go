// Package service holds the product's use cases, one method each, shared
// by the workbench (app/, through session) and the CLI (cmd/c6): verify a
// position (and store the verdict), prove below a position (the
// auto-pilot), import games and SGF, export SGF and proof SGF (the file
// formats are package bookfile's) and the data of a board image
// (Store.Picture), check, back up, merge and split (package bookmerge) and
// annotate a book.
//
// Each use case takes typed options and returns a typed result; the
// caller says it (the CLI prints text or JSON, the workbench shows a
// dialog). Long work reports its latest progress through a callback that
// never blocks the work, and is cancelled with its context; a cancelled
// import or merge says what the book kept.
//
// The package sits above the store and the queue (proofbook, jobqueue),
// the formats (bookfile) and the copies between books (bookmerge)
// and the session model, below app/ and cmd/c6: it imports no Fyne, and
// every use case is tested headless. Book is the open book the callers
// hold (they keep no *proofbook.Book of their own); Store adapts it to the
// workbench's session.BookStore.
//
// Verify is the one verifier path: it verifies a position in its
// canonical frame (the frame the book stores it in), so the workbench's
// Verify, `c6 verify`, `c6 book verify` and the auto-pilot give the same
// verdict and node count on the same position with the same options.
package service
