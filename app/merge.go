package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"c6book/engine/game"
	"c6book/service"
	"c6book/session"
)

// Books that travel (File menu): merge another book into this one, save
// the shown position's subtree as a book, export its proof as SGF. Each
// runs as a background job with progress and Cancel; a merge or a split
// ends with its summary (what was added, every verdict refused and why).

// travelItems are the File menu's items for merge, split and proof export.
func (wa *workbenchApp) travelItems() []*fyne.MenuItem {
	merge := fyne.NewMenuItem("Merge book…", wa.mergeBook)
	merge.Disabled = wa.bk.ReadOnly() != ""
	return []*fyne.MenuItem{merge,
		fyne.NewMenuItem("Save this subtree as a book…", wa.saveSubtree),
		fyne.NewMenuItem("Export proof as SGF…", wa.exportProof)}
}

func (wa *workbenchApp) mergeBook() {
	wa.chooseFile(fileSpec{title: "Merge book", confirm: "Merge", exts: []string{".c6book", ".db", ".sqlite"}}, wa.mergeBookFile)
}

// mergeBookFile merges the book at path into the open book (every
// certificate re-checked on the way in), then shows the summary.
func (wa *workbenchApp) mergeBookFile(path string) {
	bk := wa.bk
	var sum service.MergeResult
	wa.background("Merging "+filepath.Base(path), func(ctx context.Context, report func(session.Progress)) (string, error) {
		var err error
		sum, err = bk.Merge(ctx, path, func(p service.MergeProgress) {
			if !p.Final {
				report(session.Progress{Text: mergeProgressText(p), Done: p.Done, Total: p.Total})
			}
		})
		return "", mergeStopped(err, sum)
	}, func(string) {
		wa.showMergeSummary("Merged "+filepath.Base(path), sum)
	})
}

// mergeStopped says what a stopped merge or split kept (nil stays nil).
func mergeStopped(err error, sum service.MergeResult) error {
	if err == nil || errors.Is(err, context.Canceled) {
		return err
	}
	if sum.Transactions > 0 {
		return fmt.Errorf("%w (the %d positions and %d verdicts committed before it are kept)", err, sum.Positions, sum.Verdicts)
	}
	return err
}

// mergeProgressText is the progress dialog's line.
func mergeProgressText(p service.MergeProgress) string {
	return fmt.Sprintf("%s: %d / %d", p.Phase, p.Done, p.Total)
}

// showMergeSummary shows what a merge or split added, the refused verdicts
// (line, attacker, reason) in a list of their own.
func (wa *workbenchApp) showMergeSummary(title string, sum service.MergeResult) {
	// The counts, then the refused verdicts in a list of their own from
	// the typed result.
	head := sum.Counts()
	var refused []string
	for _, r := range sum.Refused {
		refused = append(refused, r.String())
	}
	if more := sum.RefusedCount - len(sum.Refused); more > 0 {
		refused = append(refused, fmt.Sprintf("... and %d more", more))
	}
	box := container.NewVBox()
	for i, l := range head {
		lb := widget.NewLabel(l)
		lb.Wrapping = fyne.TextWrapWord
		if sum.RefusedCount > 0 && i == len(head)-1 {
			lb.Importance = widget.DangerImportance
			lb.TextStyle.Bold = true
		}
		box.Add(lb)
	}
	var content fyne.CanvasObject = box
	if len(refused) > 0 {
		list := container.NewVBox()
		for _, l := range refused {
			lb := widget.NewLabel(strings.TrimSpace(l))
			lb.Wrapping = fyne.TextWrapWord
			list.Add(lb)
		}
		content = container.NewBorder(box, nil, nil, nil, container.NewVScroll(list))
	}
	d := dialog.NewCustom(title, "Close", content, wa.win)
	d.Resize(fyne.NewSize(760, 420))
	d.Show()
}

// saveSubtree writes the shown position's subtree, with its proofs and the
// games through it, to a new book.
func (wa *workbenchApp) saveSubtree() {
	bk, pos := wa.bk, wa.wb.Cursor().Position().Clone()
	name := strings.TrimSuffix(filepath.Base(bk.Path()), filepath.Ext(bk.Path())) + "-subtree.c6book"
	wa.chooseFile(fileSpec{title: "Save this subtree as a book", confirm: "Save", save: true, name: name, exts: []string{".c6book"}}, func(path string) {
		if same, _ := sameFile(path, bk.Path()); same {
			dialog.ShowError(errors.New("save this subtree: choose another file than the open book"), wa.win)
			return
		}
		if fi, err := os.Stat(path); err == nil {
			if !fi.Mode().IsRegular() {
				dialog.ShowError(fmt.Errorf("save this subtree: %s is not a regular file (%s); nothing was replaced", path, fi.Mode().Type()), wa.win)
				return
			}
			os.Remove(path) // the user agreed to replace it; the split makes a new book
		}
		var sum service.MergeResult
		wa.background("Saving the subtree", func(ctx context.Context, report func(session.Progress)) (string, error) {
			var err error
			sum, err = bk.Split(ctx, pos, path, func(p service.MergeProgress) {
				if !p.Final {
					report(session.Progress{Text: mergeProgressText(p), Done: p.Done, Total: p.Total})
				}
			})
			return "", err
		}, func(string) {
			wa.showMergeSummary("Saved the subtree to "+filepath.Base(path), sum)
		})
	})
}

func sameFile(a, b string) (bool, error) {
	fa, err := os.Stat(a)
	if err != nil {
		return false, err
	}
	fb, err := os.Stat(b)
	if err != nil {
		return false, err
	}
	return os.SameFile(fa, fb), nil
}

// exportProof writes the shown position's proof (for the side it is
// proved for) as an SGF tree, then asks where to save it.
func (wa *workbenchApp) exportProof() {
	bk, pos := wa.bk, wa.wb.Cursor().Position().Clone()
	line, cur := wa.wb.Cursor().Line()
	line = append([]game.Move(nil), line[:cur]...)
	var data []byte
	var st service.ProofExportStats
	var mu sync.Mutex
	wa.background("Export proof as SGF", func(ctx context.Context, report func(session.Progress)) (string, error) {
		var buf bytes.Buffer
		s, err := bk.ExportProof(ctx, pos, game.Empty, &buf, service.ExportOptions{Line: line, MaxNodes: exportMaxNodes,
			Progress: func(n int) { report(session.Progress{Text: session.Plural(n, "move", "moves") + " exported"}) }})
		mu.Lock()
		data, st = buf.Bytes(), s
		mu.Unlock()
		return "", err
	}, func(string) {
		mu.Lock()
		defer mu.Unlock()
		wa.saveData("Export proof as SGF", fmt.Sprintf("proof for %s (%d moves)", st.Attacker, st.Nodes), "proof.sgf", []string{".sgf"}, data)
		if st.Truncated {
			dialog.ShowInformation("Export proof as SGF", fmt.Sprintf("The export stops at %d moves: the file holds part of the proof.", exportMaxNodes), wa.win)
		}
	})
}
