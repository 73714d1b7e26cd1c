// Package archtest holds the test that keeps the package layout honest: the
// import rules of docs/ARCHITECTURE.md, read from that file.
package archtest

import (
	"bufio"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

const (
	module  = "c6book"
	docFile = "docs/ARCHITECTURE.md"
	begin   = "<!-- imports:begin -->"
	end     = "<!-- imports:end -->"
)

// rule is a row of the import table: what a package (or a pattern such as
// tools/*) may import from this module and from outside it (path prefixes;
// the standard library is always allowed).
type rule struct {
	pkg     string
	inside  map[string]bool
	outside []string
}

// rules reads the import table of docs/ARCHITECTURE.md.
func rules(t *testing.T, root string) []rule {
	t.Helper()
	f, err := os.Open(filepath.Join(root, docFile))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []rule
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == begin:
			in = true
			continue
		case line == end:
			in = false
		}
		if !in || !strings.HasPrefix(line, "| `") {
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		if len(cells) != 3 {
			t.Fatalf("%s: a row of the import table needs 3 cells: %s", docFile, line)
		}
		names := func(cell string) []string { // the backticked names of a cell
			var out []string
			for i, part := range strings.Split(cell, "`") {
				if i%2 == 1 {
					out = append(out, part)
				}
			}
			return out
		}
		pk := names(cells[0])
		if len(pk) != 1 {
			t.Fatalf("%s: the first cell names one package: %s", docFile, line)
		}
		r := rule{pkg: pk[0], inside: map[string]bool{}, outside: names(cells[2])}
		for _, n := range names(cells[1]) {
			r.inside[n] = true
		}
		out = append(out, r)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(out) == 0 {
		t.Fatalf("%s: no import table between %s and %s", docFile, begin, end)
	}
	return out
}

// imports lists every package of the module (its path relative to the
// module root, "." for the root) with what its non-test files import.
func imports(t *testing.T, root string) map[string][]string {
	t.Helper()
	pkgs := map[string]map[string]bool{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if p != root && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "testdata" || name == "vendor") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, filepath.Dir(p))
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if pkgs[rel] == nil {
			pkgs[rel] = map[string]bool{}
		}
		for _, im := range f.Imports {
			ip, err := strconv.Unquote(im.Path.Value)
			if err != nil {
				return err
			}
			pkgs[rel][ip] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	for p, set := range pkgs {
		out[p] = []string{} // a package that imports nothing is listed too
		for ip := range set {
			out[p] = append(out[p], ip)
		}
		sort.Strings(out[p])
	}
	return out
}

// Every package of the module has a row in docs/ARCHITECTURE.md's import
// table, and imports only what its row allows: a package of this module
// its row names, the standard library, or an outside module under one of
// its row's prefixes. It fails on a new import that crosses a layer (say
// engine importing proofbook, or session importing Fyne) and on a new
// package that the document does not describe.
func TestImportsFollowArchitecture(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	rs := rules(t, root)
	find := func(pkg string) *rule {
		for i := range rs {
			if ok, _ := path.Match(rs[i].pkg, pkg); ok {
				return &rs[i]
			}
		}
		return nil
	}
	pkgs := imports(t, root)
	if len(pkgs) < 10 {
		t.Fatalf("found %d packages under %s: not the module root?", len(pkgs), root)
	}
	var names []string
	for p := range pkgs {
		names = append(names, p)
	}
	sort.Strings(names)
	for _, p := range names {
		r := find(p)
		if r == nil {
			t.Errorf("package %s has no row in %s's import table: add one (what it is for, what it may import)", p, docFile)
			continue
		}
		for _, ip := range pkgs[p] {
			switch {
			case ip == module || strings.HasPrefix(ip, module+"/"):
				dep := strings.TrimPrefix(strings.TrimPrefix(ip, module), "/")
				if dep == "" {
					dep = "."
				}
				if !r.inside[dep] {
					t.Errorf("%s imports %s; %s does not allow it", p, dep, docFile)
				}
			case !strings.Contains(strings.SplitN(ip, "/", 2)[0], "."):
				// the standard library
			default:
				ok := false
				for _, prefix := range r.outside {
					ok = ok || ip == prefix || strings.HasPrefix(ip, prefix+"/")
				}
				if !ok {
					t.Errorf("%s imports %s (outside the module); %s does not allow it", p, ip, docFile)
				}
			}
		}
	}
}

// The table is read as written: a package name in the table that matches
// no package is a stale row.
func TestImportTableHasNoStaleRows(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	pkgs := imports(t, root)
	for _, r := range rules(t, root) {
		found := false
		for p := range pkgs {
			if ok, _ := path.Match(r.pkg, p); ok {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: the row for %s matches no package", docFile, r.pkg)
		}
	}
}
