// Command apisize measures two sizes issue 34 asks about, per package of
// the module: how many identifiers each package exports (package-level
// constants, variables, functions and types, and the exported methods of
// its exported types; struct fields are not counted), and which functions
// are longer than a limit (from the line of `func` to its closing brace).
// Test files are left out.
//
//	go run ./tools/apisize [-long 100] [-max 0] [packages dir...]   (default: every package of the module)
//
// With -max N it exits 1 when a package exports more than N identifiers.
package main

import (
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

type pkgSize struct {
	dir      string
	exported int
}

type longFunc struct {
	where string
	name  string
	lines int
}

func main() {
	long := flag.Int("long", 100, "list functions longer than this many lines (0: none)")
	max := flag.Int("max", 0, "exit 1 when a package exports more identifiers than this (0: no limit)")
	flag.Parse()
	dirs := flag.Args()
	if len(dirs) == 0 {
		var err error
		if dirs, err = moduleDirs("."); err != nil {
			fmt.Fprintln(os.Stderr, "apisize:", err)
			os.Exit(2)
		}
	}
	var sizes []pkgSize
	var longs []longFunc
	for _, dir := range dirs {
		size, l, err := measure(dir, *long)
		if err != nil {
			fmt.Fprintln(os.Stderr, "apisize:", err)
			os.Exit(2)
		}
		if size.exported >= 0 {
			sizes = append(sizes, size)
		}
		longs = append(longs, l...)
	}
	sort.Slice(sizes, func(i, j int) bool { return sizes[i].exported > sizes[j].exported })
	over := false
	fmt.Println("exported  package")
	for _, s := range sizes {
		mark := ""
		if *max > 0 && s.exported > *max {
			mark, over = "  over the limit", true
		}
		fmt.Printf("%8d  %s%s\n", s.exported, s.dir, mark)
	}
	if *long > 0 {
		sort.Slice(longs, func(i, j int) bool { return longs[i].lines > longs[j].lines })
		fmt.Printf("\n%d functions over %d lines\n", len(longs), *long)
		for _, l := range longs {
			fmt.Printf("%8d  %s %s\n", l.lines, l.where, l.name)
		}
	}
	if over {
		os.Exit(1)
	}
}

// moduleDirs lists the directories under root that hold non-test Go files.
func moduleDirs(root string) ([]string, error) {
	seen := map[string]bool{}
	var dirs []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			name := d.Name()
			if path != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "vendor") {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(path, ".go") && !strings.HasSuffix(path, "_test.go") {
			dir := filepath.Dir(path)
			if !seen[dir] {
				seen[dir] = true
				dirs = append(dirs, dir)
			}
		}
		return nil
	})
	sort.Strings(dirs)
	return dirs, err
}

// measure counts one directory's exported identifiers and lists its long
// functions. A main package's exports are not counted (exported = -1).
func measure(dir string, long int) (pkgSize, []longFunc, error) {
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, dir, func(fi fs.FileInfo) bool {
		return !strings.HasSuffix(fi.Name(), "_test.go")
	}, 0)
	if err != nil {
		return pkgSize{}, nil, err
	}
	size := pkgSize{dir: dir, exported: -1}
	var longs []longFunc
	for name, pkg := range pkgs {
		count := 0
		for fname, f := range pkg.Files {
			for _, decl := range f.Decls {
				switch d := decl.(type) {
				case *ast.FuncDecl:
					if d.Recv == nil {
						if d.Name.IsExported() {
							count++
						}
					} else if d.Name.IsExported() && exportedRecv(d.Recv) {
						count++
					}
					if d.Body != nil && long > 0 {
						n := fset.Position(d.End()).Line - fset.Position(d.Pos()).Line + 1
						if n > long {
							longs = append(longs, longFunc{
								where: fmt.Sprintf("%s:%d", fname, fset.Position(d.Pos()).Line),
								name:  funcName(d), lines: n})
						}
					}
				case *ast.GenDecl:
					for _, spec := range d.Specs {
						switch s := spec.(type) {
						case *ast.TypeSpec:
							if s.Name.IsExported() {
								count++
							}
						case *ast.ValueSpec:
							for _, n := range s.Names {
								if n.IsExported() {
									count++
								}
							}
						}
					}
				}
			}
		}
		if name != "main" {
			size.exported = count
		}
	}
	return size, longs, nil
}

// recvType is the name of a method's receiver type ("" when it has none
// this program can name).
func recvType(recv *ast.FieldList) *ast.Ident {
	if recv == nil || len(recv.List) == 0 {
		return nil
	}
	t := recv.List[0].Type
	for {
		switch x := t.(type) {
		case *ast.StarExpr:
			t = x.X
		case *ast.IndexExpr:
			t = x.X
		case *ast.IndexListExpr:
			t = x.X
		case *ast.Ident:
			return x
		default:
			return nil
		}
	}
}

func exportedRecv(recv *ast.FieldList) bool {
	id := recvType(recv)
	return id != nil && id.IsExported()
}

func funcName(d *ast.FuncDecl) string {
	if id := recvType(d.Recv); id != nil {
		return id.Name + "." + d.Name.Name
	}
	return d.Name.Name
}
