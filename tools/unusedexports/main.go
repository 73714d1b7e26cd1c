// Command unusedexports lists the exported identifiers of some packages of
// the module that no other package uses: the done-when of issue 25 ("no
// exported identifier in jobqueue, session or ui is unused outside its
// package"). `make check-exports` runs it; it exits 1 when it finds one.
//
//	go run ./tools/unusedexports [-fields] [packages]   (default: ./jobqueue ./session ./session/sessiontest ./ui)
//
// It type-checks every package of the module (with its test files: a test
// of another package is a user) from source, its imports read from the
// compiler's export data (`go list -export`), and records what each one
// uses of the checked packages. A package's own files and its own tests do
// not count. Checked: constants, variables, functions, types (a type is
// used when a user names it or holds a value of it), and the
// methods of exported types unless an interface requires them (an
// interface of any package seen, or one written inline in a user: a method
// an interface needs is used through it). With -fields it lists the
// exported fields of exported structs no other package names too (a
// field can also be used by position in a literal or by reflection, e.g.
// encoding/json: those are judged by hand, so fields do not fail the run).
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
)

// listed is the part of `go list -json` the check reads.
type listed struct {
	ImportPath   string
	Name         string
	Dir          string
	Export       string
	GoFiles      []string
	CgoFiles     []string
	TestGoFiles  []string
	XTestGoFiles []string
	ForTest      string
	Module       *struct{ Main bool }
	Standard     bool
}

func main() {
	fields := flag.Bool("fields", false, "list unused exported struct fields too (informational)")
	flag.Parse()
	targets := flag.Args()
	if len(targets) == 0 {
		targets = []string{"./jobqueue", "./session", "./session/sessiontest", "./ui"}
	}
	found, err := run("", targets, *fields, os.Stdout)
	if err != nil {
		fmt.Fprintln(os.Stderr, "unusedexports:", err)
		os.Exit(2)
	}
	if found > 0 {
		os.Exit(1)
	}
}

// goList runs go list -json with args in dir and decodes its stream.
func goList(dir string, args ...string) ([]listed, error) {
	cmd := exec.Command("go", append([]string{"list", "-json"}, args...)...)
	cmd.Dir = dir
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("go list: %v: %s", err, strings.TrimSpace(errb.String()))
	}
	var list []listed
	dec := json.NewDecoder(&out)
	for {
		var p listed
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			return nil, fmt.Errorf("go list output: %v", err)
		}
		list = append(list, p)
	}
	return list, nil
}

// run checks the target packages of the module in dir ("": the current
// directory) and prints what no other package uses; it returns how many
// (fields not counted).
func run(dir string, targets []string, withFields bool, w io.Writer) (int, error) {
	tl, err := goList(dir, targets...)
	if err != nil {
		return 0, err
	}
	target := map[string]bool{}
	for _, p := range tl {
		target[p.ImportPath] = true
	}
	all, err := goList(dir, "-export", "-deps", "-test", "./...")
	if err != nil {
		return 0, err
	}
	export := map[string]string{}
	var mine []listed
	for _, p := range all {
		if p.ForTest != "" || strings.HasSuffix(p.ImportPath, ".test") || strings.Contains(p.ImportPath, " [") {
			continue // test variants: the packages are checked from source below
		}
		export[p.ImportPath] = p.Export
		if p.Module != nil && p.Module.Main {
			mine = append(mine, p)
		}
	}
	fset := token.NewFileSet()
	imp := importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) {
		f, ok := export[path]
		if !ok || f == "" {
			return nil, fmt.Errorf("no export data for %s", path)
		}
		return os.Open(f)
	})
	u := &usage{used: map[types.Object]bool{}, target: target,
		ifaces: []*types.Interface{types.Universe.Lookup("error").Type().Underlying().(*types.Interface)}}
	// Every package is a user of the others (its own files and its own
	// tests do not count: u.self).
	for _, p := range mine {
		u.self = p.ImportPath
		if err := u.check(fset, imp, p.ImportPath, p.Dir, append(append(append([]string{}, p.GoFiles...), p.CgoFiles...), p.TestGoFiles...)); err != nil {
			return 0, err
		}
		if len(p.XTestGoFiles) > 0 {
			if err := u.check(fset, imp, p.ImportPath+"_test", p.Dir, p.XTestGoFiles); err != nil {
				return 0, err
			}
		}
	}
	var pkgs []*types.Package
	for _, p := range tl {
		pkg, err := imp.Import(p.ImportPath)
		if err != nil {
			return 0, err
		}
		pkgs = append(pkgs, pkg)
	}
	for _, pkg := range pkgs {
		u.addInterfaces(pkg, map[*types.Package]bool{})
	}
	var lines []string
	found := 0
	for _, pkg := range pkgs {
		for _, name := range pkg.Scope().Names() {
			obj := pkg.Scope().Lookup(name)
			if !obj.Exported() {
				continue
			}
			if !u.used[obj] {
				lines = append(lines, fmt.Sprintf("%s: %s %s", pkg.Path(), kind(obj), name))
				found++
			}
			tn, ok := obj.(*types.TypeName)
			if !ok || tn.IsAlias() {
				continue
			}
			named, ok := tn.Type().(*types.Named)
			if !ok {
				continue
			}
			if _, isIface := named.Underlying().(*types.Interface); !isIface {
				for m := range named.Methods() {
					if m.Exported() && !u.used[m] && !u.required(named, m.Name()) {
						lines = append(lines, fmt.Sprintf("%s: method %s.%s", pkg.Path(), name, m.Name()))
						found++
					}
				}
			}
			if st, ok := named.Underlying().(*types.Struct); ok && withFields {
				for f := range st.Fields() {
					if f.Exported() && !f.Embedded() && !u.used[f] && !u.literal[named] {
						lines = append(lines, fmt.Sprintf("%s: field %s.%s (judge: reflection, json)", pkg.Path(), name, f.Name()))
					}
				}
			}
		}
	}
	sort.Strings(lines)
	for _, l := range lines {
		fmt.Fprintln(w, l)
	}
	return found, nil
}

func kind(obj types.Object) string {
	switch obj.(type) {
	case *types.Const:
		return "const"
	case *types.Var:
		return "var"
	case *types.Func:
		return "func"
	case *types.TypeName:
		return "type"
	}
	return "object"
}

// usage is what the user packages use of the target packages, and the
// interfaces they and their imports declare.
type usage struct {
	target  map[string]bool
	self    string // the package being checked: its uses of itself do not count
	used    map[types.Object]bool
	literal map[*types.Named]bool // structs of a target written as unkeyed literals
	ifaces  []*types.Interface
	seen    map[*types.Package]bool
}

// check type-checks one user package (files of dir) and records its uses.
func (u *usage) check(fset *token.FileSet, imp types.Importer, path, dir string, names []string) error {
	var files []*ast.File
	for _, n := range names {
		f, err := parser.ParseFile(fset, filepath.Join(dir, n), nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		files = append(files, f)
	}
	if len(files) == 0 {
		return nil
	}
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}, Types: map[ast.Expr]types.TypeAndValue{}, Selections: map[*ast.SelectorExpr]*types.Selection{}}
	conf := types.Config{Importer: imp, Error: func(error) {}}
	pkg, err := conf.Check(path, fset, files, info)
	if err != nil {
		return fmt.Errorf("%s: %v", path, err)
	}
	for _, obj := range info.Uses {
		u.use(obj)
	}
	for _, sel := range info.Selections {
		u.use(sel.Obj()) // a promoted method or field: the embedded type's member
	}
	for e, tv := range info.Types {
		// A type whose values a user holds is used, named or not (e.g.
		// the result of a method it calls).
		t := tv.Type
		if ptr, ok := t.(*types.Pointer); ok {
			t = ptr.Elem()
		}
		if named, ok := t.(*types.Named); ok {
			u.use(named.Origin().Obj())
		}
		if it, ok := tv.Type.Underlying().(*types.Interface); ok && it.NumMethods() > 0 {
			u.ifaces = append(u.ifaces, it)
		}
		if cl, ok := e.(*ast.CompositeLit); ok && len(cl.Elts) > 0 {
			if _, keyed := cl.Elts[0].(*ast.KeyValueExpr); !keyed {
				if named, ok := tv.Type.(*types.Named); ok && named.Obj().Pkg() != nil && u.target[named.Obj().Pkg().Path()] {
					if u.literal == nil {
						u.literal = map[*types.Named]bool{}
					}
					u.literal[named] = true
				}
			}
		}
	}
	u.addInterfaces(pkg, map[*types.Package]bool{})
	return nil
}

// use records obj when it belongs to a target package (a method or field
// of an instantiated generic type as its declaration).
func (u *usage) use(obj types.Object) {
	switch o := obj.(type) {
	case *types.Func:
		obj = o.Origin()
	case *types.Var:
		obj = o.Origin()
	}
	if obj.Pkg() != nil && u.target[obj.Pkg().Path()] && obj.Pkg().Path() != u.self {
		u.used[obj] = true
	}
}

// addInterfaces collects the named interfaces of pkg and of everything it
// imports.
func (u *usage) addInterfaces(pkg *types.Package, _ map[*types.Package]bool) {
	if u.seen == nil {
		u.seen = map[*types.Package]bool{}
	}
	if u.seen[pkg] {
		return
	}
	// A package known only through another's export data may be partial
	// (the objects that one needed): look at it again when met later.
	u.seen[pkg] = pkg.Complete()
	for _, name := range pkg.Scope().Names() {
		if tn, ok := pkg.Scope().Lookup(name).(*types.TypeName); ok {
			if it, ok := tn.Type().Underlying().(*types.Interface); ok && it.NumMethods() > 0 {
				u.ifaces = append(u.ifaces, it)
			}
		}
	}
	for _, dep := range pkg.Imports() {
		u.addInterfaces(dep, nil)
	}
}

// required reports whether an interface that named (or its pointer)
// implements needs its method name (error's Error included; fmt.Stringer
// is among fmt's interfaces).
func (u *usage) required(named *types.Named, name string) bool {
	ptr := types.NewPointer(named)
	for _, it := range u.ifaces {
		has := false
		for m := range it.Methods() {
			if m.Name() == name {
				has = true
				break
			}
		}
		if has && (types.Implements(named, it) || types.Implements(ptr, it)) {
			return true
		}
	}
	return false
}
