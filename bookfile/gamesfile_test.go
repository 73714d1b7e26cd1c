package bookfile

import (
	"bytes"
	"c6book/internal/booktest"
	"c6book/proofbook"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"c6book/engine/game"
)

// gzipped compresses data.
func gzipped(t testing.TB, data []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	if _, err := zw.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// repeatReader yields its pattern forever (/dev/zero with a zero byte).
type repeatReader struct {
	pattern []byte
	i       int
}

func (r *repeatReader) Read(p []byte) (int, error) {
	for k := range p {
		p[k] = r.pattern[r.i%len(r.pattern)]
		r.i++
	}
	return len(p), nil
}

// bomb is a small gzip file (a member compressing 1 MiB of spaces, repeated)
// that decompresses to head, then n MiB of spaces, then tail.
func bomb(t testing.TB, head string, n int, tail string) []byte {
	t.Helper()
	return repeatGzip(t, head, strings.Repeat(" ", 1<<20), n, tail)
}

// repeatGzip is a gzip file of head, n times body and tail, with body
// compressed once and its member repeated.
func repeatGzip(t testing.TB, head, body string, n int, tail string) []byte {
	t.Helper()
	member := gzipped(t, []byte(body))
	out := gzipped(t, []byte(head))
	for range n {
		out = append(out, member...)
	}
	return append(out, gzipped(t, []byte(tail))...)
}

// A games file that is not one, or that breaks a limit, is refused whole
// with a one-line error naming the entry, and nothing is written, even
// when good games come before the bad entry (more than a batch of them).
func TestImportGamesRefusesBadFiles(t *testing.T) {
	ctx := context.Background()
	bk := booktest.NewBook(t, game.Connect6())
	ids, games := synthGames(21, 120, 15)
	if _, err := ImportGames(ctx, bk, gamesFile(t, map[string][]string{ids[0]: games[ids[0]]}, false), ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	// good is the games file's entries before the bad one.
	var good strings.Builder
	for i, id := range ids[1:] {
		if i > 0 {
			good.WriteString(", ")
		}
		fmt.Fprintf(&good, "%q: [%q", id, games[id][0])
		for _, tn := range games[id][1:] {
			fmt.Fprintf(&good, ", %q", tn)
		}
		good.WriteString("]")
	}
	g := good.String()
	manyTurns := `"j10"` + strings.Repeat(`, "j11k10"`, maxGameTurns)
	cases := []struct {
		name string
		data []byte
		want string // in the error
	}{
		{"null entry", []byte(`{` + g + `, "x1": null}`), `entry 120 (game "x1"): want a list of turns, not null`},
		{"string entry", []byte(`{` + g + `, "x1": "j10"}`), `entry 120 (game "x1"): want a list of turns, not a string`},
		{"object entry", []byte(`{` + g + `, "x1": {"a": 1}}`), `entry 120 (game "x1"): want a list of turns, not an object`},
		{"null turn", []byte(`{` + g + `, "x1": ["j10", null]}`), `entry 120 (game "x1"): turn 2: want a string`},
		{"number turn", []byte(`{` + g + `, "x1": ["j10", 5]}`), `entry 120 (game "x1"): turn 2: want a string`},
		{"list turn", []byte(`{` + g + `, "x1": ["j10", ["j11"]]}`), `entry 120 (game "x1"): turn 2: want a string`},
		{"empty id", []byte(`{` + g + `, "": ["j10"]}`), `entry 120: empty game id`},
		{"long id", []byte(`{` + g + `, "` + strings.Repeat("7", 100000) + `": ["j10"]}`), `entry 120: game id of 100000 bytes (at most 64)`},
		{"id of 65 bytes", []byte(`{` + g + `, "` + strings.Repeat("7", 65) + `": ["j10"]}`), `entry 120: game id of 65 bytes`},
		{"trailing garbage", []byte(`{` + g + `} garbage`), `data after the games object`},
		{"second object", []byte(`{` + g + `} {}`), `data after the games object: an object`},
		{"long turn", []byte(`{` + g + `, "x1": ["j10", "` + strings.Repeat("j11k10", 20000) + `"]}`), `entry 120 (game "x1"): turn 2 of 120000 bytes (at most 64)`},
		{"turn of 65 bytes", []byte(`{` + g + `, "x1": ["j10", "` + strings.Repeat("k", 65) + `"]}`), `turn 2 of 65 bytes`},
		{"many turns", []byte(`{` + g + `, "x1": [` + manyTurns + `]}`), `entry 120 (game "x1"): more than 1000 turns`},
		{"id twice", []byte(`{` + g + `, "x1": ["j10"], "x1": ["j10"]}`), `game "x1" appears twice`},
		{"truncated", []byte(`{` + g + `, "x1": ["j10"`), `entry 120 (game "x1")`},
		{"white space bomb", bomb(t, `{`+g+`, "x1": [`, 2, `]}`), `entry 120 (game "x1"): more than 1048576 bytes of white space in a row`},
		{"endless string", bomb(t, `{`+g+`, "x1": ["`, 2, `"]}`), `entry 120 (game "x1"): turn 1: a JSON value longer than 1048576 bytes`},
		{"empty file", nil, `games file: empty`},
		{"a list", []byte(`[1, 2]`), `want {"id"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, gz := range []bool{false, true} {
				data := c.data
				if gz {
					if bytes.HasPrefix(data, []byte{0x1f, 0x8b}) {
						break // compressed already
					}
					data = gzipped(t, data)
				}
				before := bookState(t, bk)
				st, err := ImportGames(ctx, bk, bytes.NewReader(data), ImportOptions{Batch: 10})
				if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
					t.Fatalf("gzip %v: want a one-line error with %q, got %v (%+v)", gz, c.want, err, st)
				}
				if st.Games != 0 || st.Transactions != 0 {
					t.Fatalf("gzip %v: %+v", gz, st)
				}
				if bookState(t, bk) != before {
					t.Fatalf("gzip %v: the refused file changed the book", gz)
				}
			}
		})
	}
	// The same file without its bad entry is stored.
	st, err := ImportGames(ctx, bk, strings.NewReader(`{`+g+`}`), ImportOptions{Batch: 10})
	if err != nil || st.Games != 119 || st.Already != 0 {
		t.Fatalf("good games: %+v %v", st, err)
	}
	booktest.MustCheck(t, bk)
}

// /dev/zero and endless whitespace are refused without reading them whole
// (the whitespace at the size limit).
func TestImportGamesEndlessInput(t *testing.T) {
	ctx := context.Background()
	bk := booktest.NewBook(t, game.Connect6())
	before := bookState(t, bk)
	for _, c := range []struct {
		name string
		r    io.Reader
		want string
	}{
		{"zeros", &repeatReader{pattern: []byte{0}}, "invalid character"},
		{"spaces", io.MultiReader(strings.NewReader(`{"1": [`), &repeatReader{pattern: []byte{' '}}), "white space in a row"},
		{"endless game", io.MultiReader(strings.NewReader(`{"1": [`), &repeatReader{pattern: []byte(`"j10", `)}), "more than 1000 turns"},
		{"endless games", io.MultiReader(strings.NewReader(`{`), &repeatReader{pattern: []byte(`"1": [], `)}), fmt.Sprintf("more than %d games", maxGamesInFile)},
		{"endless id", io.MultiReader(strings.NewReader(`{"`), &repeatReader{pattern: []byte{'1'}}), "longer than 1048576 bytes"},
	} {
		_, err := ImportGames(ctx, bk, c.r, ImportOptions{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Fatalf("%s: want an error with %q, got %v", c.name, c.want, err)
		}
	}
	if bookState(t, bk) != before {
		t.Fatal("a refused file changed the book")
	}
}

// A file beyond the size limit (decompressed) is refused: a gzip bomb of
// valid games, with the limit lowered to 1 MiB for the test.
func TestImportGamesSizeLimit(t *testing.T) {
	ctx := context.Background()
	bk := booktest.NewBook(t, game.Connect6())
	before := bookState(t, bk)
	body := strings.Repeat(`"x": ["j10", "k10k11"], `, 1000) // 24 kB
	for _, data := range [][]byte{
		repeatGzip(t, `{`, body, 50, `"y": []}`),
		[]byte(`{` + strings.Repeat(body, 50) + `"y": []}`),
	} {
		_, err := importGames(ctx, bk, bytes.NewReader(data), ImportOptions{}, 1<<20)
		if err == nil || !strings.Contains(err.Error(), "the file is larger than 1 MB decompressed") {
			t.Fatalf("want the size limit, got %v", err)
		}
	}
	if bookState(t, bk) != before {
		t.Fatal("a refused file changed the book")
	}
	// Under the limit the same games are read (and refused for the id
	// given twice, after the whole file is read).
	_, err := importGames(ctx, bk, bytes.NewReader(repeatGzip(t, `{`, body, 10, `"y": []}`)), ImportOptions{}, 1<<20)
	if err == nil || !strings.Contains(err.Error(), `game "x" appears twice`) {
		t.Fatalf("under the limit: %v", err)
	}
}

// An import cancelled while it reads the file stores nothing and still
// sends its final report.
func TestImportGamesCancelWhileReading(t *testing.T) {
	bk := booktest.NewBook(t, game.Connect6())
	_, games := synthGames(22, 50, 10)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	before := bookState(t, bk)
	var final []ImportProgress
	st, err := ImportGames(ctx, bk, gamesFile(t, games, true), ImportOptions{OnProgress: func(p ImportProgress) {
		if p.Final {
			final = append(final, p)
		}
	}})
	if !errors.Is(err, context.Canceled) || st.Games != 0 {
		t.Fatalf("cancelled import: %+v %v", st, err)
	}
	if len(final) != 1 || !errors.Is(final[0].Err, context.Canceled) || final[0].Stored != 0 {
		t.Fatalf("final reports %+v, want one, cancelled, nothing stored", final)
	}
	if bookState(t, bk) != before {
		t.Fatal("a cancelled import changed the book")
	}
}

// Games are stored in the order of their ids (numeric ids by value, then
// the others by text), whatever the file's order.
func TestImportGamesOrder(t *testing.T) {
	ctx := context.Background()
	bk := booktest.NewBook(t, game.Connect6())
	file := `{"b": ["j10"], "10": ["j10"], "9": ["j10"], "a": ["j10"], "010": ["j10"], "-3": ["j10"]}`
	if _, err := ImportGames(ctx, bk, strings.NewReader(file), ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	rows, err := readDB(t, bk).QueryContext(ctx, "SELECT ext_id FROM game ORDER BY id")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var got []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			t.Fatal(err)
		}
		got = append(got, id)
	}
	if want := "-3 9 010 10 a b"; strings.Join(got, " ") != want {
		t.Fatalf("stored in the order %q, want %q", strings.Join(got, " "), want)
	}
}

// FuzzImportGames: whatever the file, the import either refuses it with a
// one-line error and leaves the book as it was, or stores it and the book
// passes its check.
func FuzzImportGames(f *testing.F) {
	for _, s := range []string{
		`{"1": ["j10", "j11k10", "l11m9"], "2": ["j10", "k10k11"]}`,
		`{"1": ["j10", "j11k10", "j10a1"]}`,
		`{"4": ["j10", "a1b1", "j11j12", "a2b2", "j13j14", "a3b3", "j15j16"]}`,
		`{"1": null}`, `{"": []}`, `{"1": ["j10"]} x`, `{"1": [1]}`, `{"1": ["-", "j10"]}`, "", "[]",
		`{"1": ["j10"], "1": ["k10"]}`, `{"a": ["s19"], "b": ["a1"], "c": ["t20"]}`,
	} {
		f.Add([]byte(s))
		f.Add(gzipped(f, []byte(s)))
	}
	// One book per fuzzing process: the inputs accepted pile up in it.
	ctx := context.Background()
	bk := booktest.NewBook(f, game.Connect6())
	if _, err := ImportGames(ctx, bk, strings.NewReader(`{"0": ["j10", "k10k11", "l10l11"]}`), ImportOptions{}); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		before := bookState(t, bk)
		st, err := ImportGames(ctx, bk, bytes.NewReader(data), ImportOptions{Batch: 3})
		if err != nil {
			if strings.Contains(err.Error(), "\n") || !strings.HasPrefix(err.Error(), "games file: ") {
				t.Fatalf("error %q: want one line about the games file", err)
			}
			if bookState(t, bk) != before {
				t.Fatalf("refused (%v) but the book changed", err)
			}
			return
		}
		for _, e := range st.Skipped {
			if strings.Contains(e.Error(), "\n") {
				t.Fatalf("skip reason %q spans lines", e.Error())
			}
		}
		booktest.MustCheck(t, bk)
	})
}

// A file that is not a games file is an error and writes nothing (moved
// from proofbook's TestImportGames with the games file reader).
func TestImportGamesNotAGamesFile(t *testing.T) {
	ctx := context.Background()
	bk := booktest.NewBook(t, game.Connect6())
	_, games := synthGames(3, 30, 25)
	if _, err := ImportGames(ctx, bk, gamesFile(t, games, true), ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	before := bookState(t, bk)
	for _, bad := range []string{"", "[1,2]", `{"5": "j10"}`, "\x1f\x8bnot gzip", `{"6": ["j10"]`} {
		if _, err := ImportGames(ctx, bk, strings.NewReader(bad), ImportOptions{}); err == nil {
			t.Fatalf("accepted %q", bad)
		}
	}
	if after := bookState(t, bk); after != before {
		t.Fatal("a failed games import changed the book")
	}
}

// A read-only book exports, and refuses the imports with ErrReadOnly,
// changing nothing (moved from proofbook's TestReadOnlyBook with the
// formats).
func TestReadOnlyBookFormats(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "ro.c6book")
	bk, err := proofbook.Create(ctx, path, game.Connect6())
	if err != nil {
		t.Fatal(err)
	}
	l, err := bk.AddLine(ctx, booktest.Turns(t, bk.Rules(), "j10 j11k10"))
	if err != nil {
		t.Fatal(err)
	}
	id := l.IDs[len(l.IDs)-1]
	if err := bk.SetComment(ctx, id, "kept"); err != nil {
		t.Fatal(err)
	}
	if err := bk.Close(); err != nil {
		t.Fatal(err)
	}
	ro, err := proofbook.OpenWith(ctx, path, proofbook.OpenOptions{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	before := bookState(t, ro)
	var sgf bytes.Buffer
	if _, err := ExportSGF(ctx, ro, id, &sgf, ExportOptions{}); err != nil || !strings.Contains(sgf.String(), "C[kept]") {
		t.Fatalf("export: %v %s", err, sgf.String())
	}
	for what, err := range map[string]error{
		"sgf": func() error { _, err := ImportSGF(ctx, ro, "(;B[a1])"); return err }(),
		"games": func() error {
			_, err := ImportGames(ctx, ro, strings.NewReader(`{"1": ["j10", "a1a2"]}`), ImportOptions{})
			return err
		}(),
	} {
		if !errors.Is(err, proofbook.ErrReadOnly) || ro.ReadOnly() == "" || !strings.Contains(err.Error(), ro.ReadOnly()) {
			t.Fatalf("%s on a read-only book: %v (why read-only: %q)", what, err, ro.ReadOnly())
		}
	}
	if after := bookState(t, ro); after != before {
		t.Fatal("a refused import changed the book")
	}
}
