package main

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The app wires the service layer: none of its (non-test) files reaches
// the store itself (the book's use cases are service.Book's, the session's
// store is service.Store).
func TestAppReachesTheBookThroughTheService(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		af, err := parser.ParseFile(fset, f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, im := range af.Imports {
			if p, _ := strconv.Unquote(im.Path.Value); p == "c6book/proofbook" {
				t.Errorf("%s imports %s: use c6book/service", f, p)
			}
		}
	}
}
