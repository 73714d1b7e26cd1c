package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
)

// Drag and drop: files dropped on the window are opened or imported, one
// after another, each as its menu item does it: a book (.c6book) as File →
// Open book, an SGF file as File → Import SGF, a LittleGolem games file
// (.json, .json.gz) as File → Import games. A book dropped among other
// files is opened when its turn comes: the files after it go into it.

// dropKind is what a dropped file is taken for.
type dropKind int

const (
	dropUnknown dropKind = iota
	dropBook
	dropSGF
	dropGames
)

// dropKindOf reads a dropped file's kind from its name.
func dropKindOf(name string) dropKind {
	n := strings.ToLower(name)
	switch {
	case strings.HasSuffix(n, ".c6book"):
		return dropBook
	case strings.HasSuffix(n, ".sgf"):
		return dropSGF
	case strings.HasSuffix(n, ".json"), strings.HasSuffix(n, ".json.gz"):
		return dropGames
	}
	return dropUnknown
}

// attachDrop makes the window take dropped files.
func (wa *workbenchApp) attachDrop() {
	wa.win.SetOnDropped(func(_ fyne.Position, uris []fyne.URI) { wa.dropped(uris) })
}

// dropped handles files dropped on the window (on the UI goroutine): the
// ones it cannot take are named in one error and the others are handled
// in order, each once the previous one is done.
func (wa *workbenchApp) dropped(uris []fyne.URI) {
	var paths, bad []string
	for _, u := range uris {
		switch {
		case u == nil:
		case u.Scheme() != "file":
			bad = append(bad, fmt.Sprintf("%s (not a local file)", u.String()))
		case dropKindOf(u.Name()) == dropUnknown:
			bad = append(bad, u.Name())
		default:
			paths = append(paths, u.Path())
		}
	}
	if len(bad) > 0 {
		dialog.ShowError(fmt.Errorf("cannot open or import %s: drop a book (.c6book), an SGF file (.sgf) or a games file (.json, .json.gz)",
			strings.Join(bad, ", ")), wa.win)
	}
	wa.dropNext(paths)
}

// dropNext handles paths[0], then the rest.
func (wa *workbenchApp) dropNext(paths []string) {
	if len(paths) == 0 {
		return
	}
	path, rest := paths[0], paths[1:]
	next := func() { wa.dropNext(rest) }
	if st, err := os.Stat(path); err != nil || !st.Mode().IsRegular() {
		what := "no such file"
		if err == nil {
			what = "not a regular file"
		}
		dialog.ShowError(fmt.Errorf("%s: %s", path, what), wa.win)
		next()
		return
	}
	kind := dropKindOf(path)
	if kind != dropBook && wa.bk.ReadOnly() != "" {
		dialog.ShowError(errors.New("cannot import "+path+": the book is read-only ("+wa.bk.ReadOnly()+")"), wa.win)
		next()
		return
	}
	open := func() (io.ReadCloser, error) { return os.Open(path) }
	switch kind {
	case dropBook:
		if path == wa.bk.Path() {
			next() // already open
			return
		}
		wa.openPath(path, next)
	case dropSGF:
		wa.importSGFFrom(func() (io.ReadCloser, int64, error) { return openSized(path) }, false, next)
	case dropGames:
		wa.importGamesFrom(open, next)
	}
}
