package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// prefLastDir is the folder of the last file chosen in a file dialog.
const prefLastDir = "lastDir"

// fileSpec describes a file for chooseFile to ask for.
type fileSpec struct {
	title   string
	confirm string   // the confirm button
	save    bool     // a file to write: name is suggested, an existing file is replaced only when the user agrees
	name    string   // suggested file name (save)
	exts    []string // what Browse… lists

	extra []*widget.FormItem // options shown below the file (e.g. the PNG export's overlay)
}

// lastDir is the folder file dialogs start in (startDir).
func (wa *workbenchApp) lastDir() string {
	book := ""
	if wa.bk != nil {
		book = wa.bk.Path()
	}
	cwd, _ := os.Getwd()
	home, _ := os.UserHomeDir()
	return startDir(wa.app.Preferences().String(prefLastDir), book, wa.app.Storage().RootURI().Path(), cwd, home)
}

// startDir chooses the folder file dialogs start in: the last folder a file
// was chosen in (kept in the preferences), else the open book's folder,
// else the working folder when the app was started in a user's folder
// (from a terminal), else home. A folder that is gone is passed over, and
// so is the app's own storage (config) folder or any hidden folder, where
// the default book lives, unless the user chose a file there.
func startDir(last, book, storage, cwd, home string) string {
	isDir := func(d string) bool {
		st, err := os.Stat(d)
		return d != "" && err == nil && st.IsDir()
	}
	if isDir(last) {
		return last
	}
	if book != "" {
		if d := filepath.Dir(book); isDir(d) && !hiddenDir(d, storage) {
			return d
		}
	}
	if isDir(cwd) && !hiddenDir(cwd, storage) && filepath.Clean(cwd) != string(filepath.Separator) {
		return cwd
	}
	if isDir(home) {
		return home
	}
	return "."
}

// hiddenDir reports whether dir is the app's storage folder (or inside it),
// or a hidden folder (a name starting with a dot) or inside one.
func hiddenDir(dir, storage string) bool {
	d := filepath.Clean(dir)
	if storage != "" {
		if rel, err := filepath.Rel(filepath.Clean(storage), d); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return true
		}
	}
	for _, part := range strings.Split(d, string(filepath.Separator)) {
		if len(part) > 1 && strings.HasPrefix(part, ".") && part != ".." {
			return true
		}
	}
	return false
}

func (wa *workbenchApp) rememberDir(path string) {
	wa.app.Preferences().SetString(prefLastDir, filepath.Dir(path))
}

// resolvePath reads a typed path: ~ is the home folder, a relative path is
// taken in dir.
func resolvePath(typed, dir string) (string, error) {
	p := strings.TrimSpace(typed)
	if p == "" {
		return "", errors.New("no file given")
	}
	if p == "~" || strings.HasPrefix(p, "~/") {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", err
		}
		p = filepath.Join(home, strings.TrimPrefix(p, "~"))
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(dir, p)
	}
	return filepath.Clean(p), nil
}

// fileChoice is a file dialog shown by chooseFile.
type fileChoice struct {
	dialog *dialog.FormDialog
	entry  *widget.Entry // the path
}

// chooseFile asks for a file: a path typed in the entry (absolute, ~/…, or
// relative to the last folder) or one picked with Browse…, which starts in
// the last folder. then gets the chosen path; its folder becomes the last
// folder.
func (wa *workbenchApp) chooseFile(spec fileSpec, then func(path string)) fileChoice {
	start := wa.lastDir()
	entry := widget.NewEntry()
	if spec.save {
		entry.SetText(filepath.Join(start, spec.name))
	} else {
		entry.SetText(start + string(filepath.Separator))
	}
	browse := widget.NewButtonWithIcon("Browse…", theme.FolderOpenIcon(), func() { wa.browse(spec, entry, start) })
	hint := "Type a path or browse."
	if len(spec.exts) > 0 {
		hint = "Type a path or browse (" + strings.Join(spec.exts, ", ") + ")."
	}
	items := []*widget.FormItem{
		widget.NewFormItem("File", container.NewBorder(nil, nil, nil, browse, entry)),
		widget.NewFormItem("", widget.NewLabel(hint)),
	}
	items = append(items, spec.extra...)
	d := dialog.NewForm(spec.title, spec.confirm, "Cancel", items, func(ok bool) {
		if !ok {
			return
		}
		path, err := resolvePath(entry.Text, start)
		if err == nil {
			err = checkChoice(spec, path)
		}
		if err != nil {
			dialog.ShowError(err, wa.win)
			return
		}
		wa.rememberDir(path)
		if _, err := os.Stat(path); spec.save && err == nil {
			dialog.ShowConfirm("Replace the file?", path+" exists. Replace it?", func(yes bool) {
				if yes {
					then(path)
				}
			}, wa.win)
			return
		}
		then(path)
	}, wa.win)
	entry.OnSubmitted = func(string) { d.Submit() }
	d.Resize(fyne.NewSize(720, d.MinSize().Height))
	d.Show()
	wa.win.Canvas().Focus(entry)
	return fileChoice{dialog: d, entry: entry}
}

// checkChoice refuses a file that cannot be what spec asks for.
func checkChoice(spec fileSpec, path string) error {
	st, err := os.Stat(path)
	switch {
	case !spec.save && err != nil:
		return fmt.Errorf("%s: no such file", path)
	case err == nil && st.IsDir():
		return fmt.Errorf("%s is a folder: choose a file", path)
	case spec.save:
		if dst, err := os.Stat(filepath.Dir(path)); err != nil || !dst.IsDir() {
			return fmt.Errorf("%s: no such folder", filepath.Dir(path))
		}
	}
	return nil
}

// browse opens Fyne's file browser in the folder of the entry's path (else
// start) and puts the chosen file in the entry. For a file to write it
// picks a folder and keeps the typed name.
func (wa *workbenchApp) browse(spec fileSpec, entry *widget.Entry, start string) {
	dir := start
	if p, err := resolvePath(entry.Text, start); err == nil {
		if st, err := os.Stat(p); err == nil && st.IsDir() {
			dir = p
		} else if st, err := os.Stat(filepath.Dir(p)); err == nil && st.IsDir() {
			dir = filepath.Dir(p)
		}
	}
	var d *dialog.FileDialog
	if spec.save {
		name := filepath.Base(entry.Text)
		if name == "" || strings.HasSuffix(entry.Text, string(filepath.Separator)) {
			name = spec.name
		}
		d = dialog.NewFolderOpen(func(l fyne.ListableURI, err error) {
			if err == nil && l != nil {
				entry.SetText(filepath.Join(l.Path(), name))
			}
		}, wa.win)
	} else {
		d = dialog.NewFileOpen(func(r fyne.URIReadCloser, err error) {
			if err == nil && r != nil {
				entry.SetText(r.URI().Path())
				r.Close()
			}
		}, wa.win)
		if len(spec.exts) > 0 {
			d.SetFilter(storage.NewExtensionFileFilter(spec.exts))
		}
	}
	if l, err := storage.ListerForURI(storage.NewFileURI(dir)); err == nil {
		d.SetLocation(l)
	}
	d.Resize(fyne.NewSize(900, 600))
	d.Show()
}

// saveData asks where to save data (what names it: "SGF", "board image"),
// writes it there and confirms with a line naming the file.
func (wa *workbenchApp) saveData(title, what, name string, exts []string, data []byte) fileChoice {
	return wa.chooseFile(fileSpec{title: title, confirm: "Save", save: true, name: name, exts: exts}, func(path string) {
		if err := os.WriteFile(path, data, 0o644); err != nil {
			dialog.ShowError(fmt.Errorf("%s: %w", strings.ToLower(title), err), wa.win)
			return
		}
		dialog.ShowInformation(title, savedLine(what, path, len(data)), wa.win)
	})
}

// savedLine is the confirmation of an export.
func savedLine(what, path string, n int) string {
	size := fmt.Sprintf("%d bytes", n)
	switch {
	case n == 1:
		size = "1 byte"
	case n >= 10*1024:
		size = fmt.Sprintf("%d KB", (n+512)/1024)
	}
	return fmt.Sprintf("Saved the %s to %s (%s).", what, path, size)
}
