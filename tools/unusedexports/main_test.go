package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A small module: package a's exports used by b (by name, by a value's
// type, by an interface b declares, by a's own tests only) and unused.
func TestRunFindsUnusedExports(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a module with go list -export")
	}
	dir := t.TempDir()
	files := map[string]string{
		"go.mod": "module m\n\ngo 1.24\n",
		"a/a.go": `package a

func Used() Value            { return Value{} }
func Unused()                {}
func OwnTestOnly()           {}
type Value struct{ N, Dead int }
func (Value) Call()          {}
func (Value) Needed() string { return "" }
func (Value) Idle()          {}
type Held struct{}
const Lonely = 1
`,
		"a/a_test.go": `package a

import "testing"

func TestOwn(t *testing.T) { OwnTestOnly() }
`,
		"b/b.go": `package b

import "m/a"

type needer interface{ Needed() string }

func F() int {
	v := a.Used()
	v.Call()
	var n needer = v
	_ = n
	return v.N
}
`,
	}
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var out strings.Builder
	found, err := run(dir, []string{"./a"}, true, &out)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"m/a: const Lonely",
		"m/a: field Value.Dead (judge: reflection, json)",
		"m/a: func OwnTestOnly",
		"m/a: func Unused",
		"m/a: method Value.Idle",
		"m/a: type Held",
	}
	if got := strings.Split(strings.TrimSpace(out.String()), "\n"); strings.Join(got, "\n") != strings.Join(want, "\n") || found != 5 {
		t.Fatalf("found %d:\n%s\nwant (5 without the field):\n%s", found, out.String(), strings.Join(want, "\n"))
	}
}
