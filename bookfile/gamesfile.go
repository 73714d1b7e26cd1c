package bookfile

import (
	"bufio"
	"bytes"
	"cmp"
	"compress/gzip"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
)

// Limits of a LittleGolem games file ({"gid": ["j10", "j11k10", ...], ...}).
// A file beyond any of them is refused whole, before anything is written.
const (
	// maxGamesFileBytes bounds the file's size, decompressed (the shared
	// 37k LittleGolem games are 7.7 MB).
	maxGamesFileBytes = 128 << 20
	// maxGamesInFile bounds the number of games in one file (the import
	// keeps each game's id in memory, to store them in order): more than
	// six times all of LittleGolem's Connect6 games.
	maxGamesInFile = 250_000
	// maxGameIDBytes bounds a game's id (which must not be empty).
	maxGameIDBytes = 64
	// maxTurnBytes bounds one turn's text ("j11k10"; four stones at most).
	maxTurnBytes = 64
	// maxGameTurns bounds a game's turns (a board has at most 676 squares).
	maxGameTurns = 1000
	// maxTokenBytes bounds any one JSON token the decoder buffers: a string
	// or a bare literal longer than that is refused as it is read, before
	// the decoder holds it whole.
	maxTokenBytes = 1 << 20
)

// errTokenTooBig and errSpaceTooBig are refusals of the guard's.
var (
	errTokenTooBig = fmt.Errorf("a JSON value longer than %d bytes", maxTokenBytes)
	errSpaceTooBig = fmt.Errorf("more than %d bytes of white space in a row", maxTokenBytes)
)

// guardReader passes a JSON text on while bounding its size, the length of
// every string and bare literal in it and every run of white space between
// them (json.Decoder keeps the white space it skips in its buffer, and scans
// it again on each read), so that a json.Decoder reading it holds a bounded
// buffer whatever the input (a gzip bomb, /dev/zero, one endless string).
type guardReader struct {
	r        io.Reader
	n, max   int64
	inString bool
	escape   bool
	run      int // bytes of the current string or bare literal
	space    int // bytes of the current white space
}

func (g *guardReader) Read(p []byte) (int, error) {
	n, err := g.r.Read(p)
	g.n += int64(n)
	if g.n > g.max {
		return 0, fmt.Errorf("the file is larger than %d MB decompressed (the most a games file may be)", g.max>>20)
	}
	for _, c := range p[:n] {
		switch {
		case g.inString:
			switch {
			case g.escape:
				g.escape = false
			case c == '\\':
				g.escape = true
			case c == '"':
				g.inString = false
				g.run = 0
				continue
			}
			g.run++
		case c == '"':
			g.inString, g.run, g.space = true, 0, 0
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			g.run = 0
			if g.space++; g.space > maxTokenBytes {
				return 0, errSpaceTooBig
			}
		case c == '{' || c == '}' || c == '[' || c == ']' || c == ':' || c == ',':
			g.run, g.space = 0, 0
		default:
			g.run++
			g.space = 0
		}
		if g.run > maxTokenBytes {
			return 0, errTokenTooBig
		}
	}
	return n, err
}

// gamesReader returns the JSON text of a games file, plain or gzip-compressed,
// behind the guard.
func gamesReader(r io.Reader, max int64) (io.Reader, func(), error) {
	br := bufio.NewReader(r)
	if magic, _ := br.Peek(2); bytes.Equal(magic, []byte{0x1f, 0x8b}) {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, nil, fmt.Errorf("games file: %w", err)
		}
		return &guardReader{r: zr, max: max}, func() { zr.Close() }, nil
	}
	return &guardReader{r: br, max: max}, func() {}, nil
}

// tokenKind names a JSON token for an error message.
func tokenKind(t json.Token) string {
	switch v := t.(type) {
	case nil:
		return "null"
	case json.Delim:
		switch v {
		case '{':
			return "an object"
		case '[':
			return "a list"
		}
		return fmt.Sprintf("%q", string(v))
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case float64, json.Number:
		return "a number"
	}
	return fmt.Sprintf("%T", t)
}

// scanGames reads a games file {"gid": ["j10", "j11k10", ...], ...}, plain
// or gzip-compressed, one game at a time (memory stays bounded whatever the
// file), and calls fn with each game in the file's order; the turns slice is
// reused, fn must copy what it keeps. Every entry must be a non-empty id of
// at most maxGameIDBytes with a list of at most maxGameTurns strings of at
// most maxTurnBytes each; the file must end after the object and be at most
// max bytes decompressed. An error names the entry (its number in the file,
// and its id when it was read) and stops the scan. It returns the number of
// games read.
func scanGames(ctx context.Context, r io.Reader, max int64, fn func(id string, turns []string) error) (int, error) {
	in, done, err := gamesReader(r, max)
	if err != nil {
		return 0, err
	}
	defer done()
	sc := &gamesScanner{dec: json.NewDecoder(in)}
	t, err := sc.dec.Token()
	if err == io.EOF {
		return sc.fail("empty, want {\"id\": [\"j10\", ...], ...}")
	}
	if err != nil {
		return sc.fail("%v", err)
	}
	if d, ok := t.(json.Delim); !ok || d != '{' {
		return sc.fail("want {\"id\": [\"j10\", ...], ...}, not %s", tokenKind(t))
	}
	turns := make([]string, 0, 64)
	for sc.dec.More() {
		if err := ctx.Err(); err != nil {
			return sc.n, err
		}
		sc.n, sc.id = sc.n+1, ""
		sc.cur = sc.n
		if sc.n > maxGamesInFile {
			return sc.fail("more than %d games in the file", maxGamesInFile)
		}
		var bad error
		if turns, bad = sc.entry(turns[:0]); bad != nil {
			return sc.n, bad
		}
		if err := fn(sc.id, turns); err != nil {
			return sc.n, err
		}
	}
	sc.cur = 0
	if _, err := sc.token(); err != nil { // '}'
		return sc.fail("%v", err)
	}
	switch t, err := sc.dec.Token(); {
	case err == io.EOF:
		return sc.n, nil
	case err != nil:
		return sc.fail("data after the games object: %v", err)
	default:
		return sc.fail("data after the games object: %s", tokenKind(t))
	}
}

// gamesScanner is scanGames' decoder and where it is: games read (n), the
// entry being read (cur, 0: none) and its id once read.
type gamesScanner struct {
	dec    *json.Decoder
	n, cur int
	id     string
}

// fail says what is wrong, naming the entry and where it is.
func (sc *gamesScanner) fail(format string, args ...any) (int, error) {
	where := ""
	switch {
	case sc.cur > 0 && sc.id != "":
		where = fmt.Sprintf("entry %d (game %q): ", sc.cur, clip(sc.id, 40))
	case sc.cur > 0:
		where = fmt.Sprintf("entry %d: ", sc.cur)
	}
	return sc.n, fmt.Errorf("games file: %s%s (at byte %d)", where, fmt.Sprintf(format, args...), sc.dec.InputOffset())
}

// token reads the next token; the end of the input is unexpected.
func (sc *gamesScanner) token() (json.Token, error) {
	t, err := sc.dec.Token()
	if err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	return t, err
}

// entry reads one game: its id (sc.id) and its turns, appended to turns;
// an error says what is wrong with it.
func (sc *gamesScanner) entry(turns []string) ([]string, error) {
	fail := func(format string, args ...any) ([]string, error) {
		_, err := sc.fail(format, args...)
		return nil, err
	}
	t, err := sc.token()
	if err != nil {
		return fail("%v", err)
	}
	key, _ := t.(string) // the decoder reads object keys as strings
	switch {
	case key == "":
		return fail("empty game id")
	case len(key) > maxGameIDBytes:
		return fail("game id of %d bytes (at most %d)", len(key), maxGameIDBytes)
	}
	sc.id = key
	if t, err = sc.token(); err != nil {
		return fail("%v", err)
	}
	if d, ok := t.(json.Delim); !ok || d != '[' {
		return fail("want a list of turns, not %s", tokenKind(t))
	}
	for sc.dec.More() {
		if t, err = sc.token(); err != nil {
			return fail("turn %d: %v", len(turns)+1, err)
		}
		s, ok := t.(string)
		switch {
		case !ok:
			return fail("turn %d: want a string such as \"j11k10\", not %s", len(turns)+1, tokenKind(t))
		case len(s) > maxTurnBytes:
			return fail("turn %d of %d bytes (at most %d)", len(turns)+1, len(s), maxTurnBytes)
		case len(turns) == maxGameTurns:
			return fail("more than %d turns", maxGameTurns)
		}
		turns = append(turns, s)
	}
	if _, err := sc.token(); err != nil { // ']'
		return fail("%v", err)
	}
	return turns, nil
}

// clip shortens s to at most n bytes for a message.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}

// compareGameIDs orders game ids: numeric ids first, by value (LittleGolem's
// ids, so its games in the order they were played), then the others by text.
func compareGameIDs(a, b string) int {
	x, ex := strconv.ParseInt(a, 10, 64)
	y, ey := strconv.ParseInt(b, 10, 64)
	switch {
	case ex == nil && ey == nil:
		if c := cmp.Compare(x, y); c != 0 {
			return c
		}
	case ex == nil:
		return -1
	case ey == nil:
		return 1
	}
	return cmp.Compare(a, b)
}

// ReadGames reads a games file (see scanGames for its form and limits) into
// memory and returns the ids in order (see compareGameIDs). ImportGames
// does not use it: it keeps one game in memory at a time.
func ReadGames(r io.Reader) (ids []string, games map[string][]string, err error) {
	games = map[string][]string{}
	_, err = scanGames(context.Background(), r, maxGamesFileBytes, func(id string, turns []string) error {
		if _, ok := games[id]; ok {
			return fmt.Errorf("games file: game %q appears twice", clip(id, 40))
		}
		games[id] = slices.Clone(turns)
		ids = append(ids, id)
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	slices.SortFunc(ids, compareGameIDs)
	return ids, games, nil
}

// spooledGames is a games file checked whole and copied to a temporary
// file, one record a game, with the ids and records' places in memory,
// sorted (see compareGameIDs).
type spooledGames struct {
	f       *os.File
	removed bool // the file was unlinked while open
	refs    []gameRef
}

type gameRef struct {
	id   string
	off  int64
	size int32
}

func (s *spooledGames) Len() int        { return len(s.refs) }
func (s *spooledGames) ID(i int) string { return s.refs[i].id }

// Turns reads game i's record: a uvarint count, then each turn as a
// uvarint length and its bytes.
func (s *spooledGames) Turns(i int) ([]string, error) {
	ref := s.refs[i]
	buf := make([]byte, ref.size)
	if _, err := s.f.ReadAt(buf, ref.off); err != nil {
		return nil, fmt.Errorf("reading game %s back from the temporary file: %w", clip(ref.id, 40), err)
	}
	bad := func() error {
		return fmt.Errorf("reading game %s back from the temporary file: damaged record", clip(ref.id, 40))
	}
	n, k := binary.Uvarint(buf)
	if k <= 0 || n > maxGameTurns {
		return nil, bad()
	}
	buf = buf[k:]
	turns := make([]string, n)
	for j := range turns {
		l, k := binary.Uvarint(buf)
		if k <= 0 || l > uint64(len(buf)-k) {
			return nil, bad()
		}
		turns[j] = string(buf[k : k+int(l)])
		buf = buf[k+int(l):]
	}
	return turns, nil
}

// Close removes the temporary file.
func (s *spooledGames) Close() error {
	err := s.f.Close()
	if !s.removed {
		if rerr := os.Remove(s.f.Name()); rerr != nil && !errors.Is(rerr, os.ErrNotExist) && err == nil {
			err = rerr
		}
	}
	return err
}

// spoolGames checks a whole games file (scanGames) and copies its games to
// a temporary file, so that the import can store them in order without
// holding them in memory. A game id found twice refuses the file.
func spoolGames(ctx context.Context, r io.Reader, max int64) (_ *spooledGames, err error) {
	f, err := os.CreateTemp("", "c6book-games-*")
	if err != nil {
		return nil, fmt.Errorf("games file: a temporary file: %w", err)
	}
	s := &spooledGames{f: f}
	// Unlinked at once where the system allows it (a crash leaves nothing);
	// Close removes it otherwise.
	s.removed = os.Remove(f.Name()) == nil
	defer func() {
		if err != nil {
			s.Close()
		}
	}()
	w := bufio.NewWriterSize(f, 1<<16)
	var off int64
	var rec []byte
	_, err = scanGames(ctx, r, max, func(id string, turns []string) error {
		rec = binary.AppendUvarint(rec[:0], uint64(len(turns)))
		for _, t := range turns {
			rec = binary.AppendUvarint(rec, uint64(len(t)))
			rec = append(rec, t...)
		}
		if _, err := w.Write(rec); err != nil {
			return fmt.Errorf("games file: writing the temporary file: %w", err)
		}
		s.refs = append(s.refs, gameRef{id: id, off: off, size: int32(len(rec))})
		off += int64(len(rec))
		return nil
	})
	if err != nil {
		return nil, err
	}
	if err := w.Flush(); err != nil {
		return nil, fmt.Errorf("games file: writing the temporary file: %w", err)
	}
	slices.SortFunc(s.refs, func(a, b gameRef) int { return compareGameIDs(a.id, b.id) })
	for i := 1; i < len(s.refs); i++ {
		if s.refs[i].id == s.refs[i-1].id {
			return nil, fmt.Errorf("games file: game %q appears twice", clip(s.refs[i].id, 40))
		}
	}
	return s, nil
}
