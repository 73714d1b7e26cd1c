// Package bookdamage damages SQLite files on purpose, for the tests of
// what c6book does with a damaged book: it finds the pages of a table by
// walking its b-tree from the root page and writes random bytes over them.
// It also makes random legal Connect6 games to fill a book.
package bookdamage

import (
	"database/sql"
	"encoding/binary"
	"fmt"
	"math/rand"
	"net/url"
	"os"

	"c6book/engine/board"
	"c6book/engine/game"

	_ "github.com/mattn/go-sqlite3" // the driver
)

// Leaves returns the page size and the leaf pages of the b-tree of table
// (a rowid table, a WITHOUT ROWID one, or an index) in the closed database
// file at path (no WAL beside it).
func Leaves(path, table string) (pageSize int64, leaves []int64, err error) {
	u := url.URL{Path: path}
	db, err := sql.Open("sqlite3", "file:"+u.EscapedPath()+"?mode=ro&immutable=1")
	if err != nil {
		return 0, nil, err
	}
	var root int64
	err = db.QueryRow("SELECT rootpage FROM sqlite_master WHERE type IN ('table', 'index') AND name = ?", table).Scan(&root)
	db.Close()
	if err != nil {
		return 0, nil, fmt.Errorf("table %s: %w", table, err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return 0, nil, err
	}
	if len(data) < 100 {
		return 0, nil, fmt.Errorf("%s: too short", path)
	}
	pageSize = int64(binary.BigEndian.Uint16(data[16:18]))
	if pageSize == 1 {
		pageSize = 65536
	}
	seen := map[int64]bool{}
	var walk func(p int64) error
	walk = func(p int64) error {
		if p < 1 || p*pageSize > int64(len(data)) || seen[p] {
			return fmt.Errorf("page %d of %s: out of the file or seen twice", p, table)
		}
		seen[p] = true
		page := data[(p-1)*pageSize : p*pageSize]
		hdr := page
		if p == 1 {
			hdr = page[100:]
		}
		switch hdr[0] {
		case 0x0d, 0x0a: // table or index (WITHOUT ROWID) leaf
			leaves = append(leaves, p)
		case 0x05, 0x02: // interior: the left children, then the rightmost
			cells := int(binary.BigEndian.Uint16(hdr[3:5]))
			for i := 0; i < cells; i++ {
				off := binary.BigEndian.Uint16(hdr[12+2*i:])
				if err := walk(int64(binary.BigEndian.Uint32(page[off:]))); err != nil {
					return err
				}
			}
			return walk(int64(binary.BigEndian.Uint32(hdr[8:12])))
		default:
			return fmt.Errorf("page %d of %s: b-tree page type %#x", p, table, hdr[0])
		}
		return nil
	}
	return pageSize, leaves, walk(root)
}

// Damage writes random bytes (from seed) over every other leaf page of
// table (or index) in the closed database file at path, from the second on, and sets
// the file's modification time back to what it was (its change time moves:
// the kernel sets it). It returns how many pages it damaged; a table of
// fewer than 4 leaf pages is an error.
func Damage(path, table string, seed int64) (int, error) {
	return DamageSpan(path, table, seed, 0, 0)
}

// DamageSpan is Damage over n bytes from off in each page (0, 0: the
// whole page).
func DamageSpan(path, table string, seed int64, off, n int64) (int, error) {
	ps, leaves, err := Leaves(path, table)
	if err != nil {
		return 0, err
	}
	if len(leaves) < 4 {
		return 0, fmt.Errorf("table %s has %d leaf pages; want 4 or more", table, len(leaves))
	}
	fi, err := os.Stat(path)
	if err != nil {
		return 0, err
	}
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return 0, err
	}
	rng := rand.New(rand.NewSource(seed))
	if n <= 0 || off < 0 || off+n > ps {
		off, n = 0, ps
	}
	junk := make([]byte, n)
	pages := 0
	for i := 1; i < len(leaves); i += 2 {
		rng.Read(junk)
		if _, err := f.WriteAt(junk, (leaves[i]-1)*ps+off); err != nil {
			f.Close()
			return pages, err
		}
		pages++
	}
	if err := f.Close(); err != nil {
		return pages, err
	}
	return pages, os.Chtimes(path, fi.ModTime(), fi.ModTime())
}

// Games makes n random legal Connect6 games of up to maxTurns turns near
// the centre (so that they share openings), keyed by id, as the
// LittleGolem JSON holds them.
func Games(seed int64, n, maxTurns int) map[string][]string {
	rng := rand.New(rand.NewSource(seed))
	r := game.Connect6()
	games := make(map[string][]string, n)
	tmpl := board.MustNewBoard(r)
	for g := 0; g < n; g++ {
		b := tmpl.Clone()
		var ts []string
		turns := 1 + rng.Intn(maxTurns)
		for t := 0; t < turns && b.Winner() == game.Empty; t++ {
			need := r.StonesForTurn(t)
			var sq []game.Square
			for len(sq) < need {
				span := 3 + t/2
				x, y := 9+rng.Intn(2*span+1)-span, 9+rng.Intn(2*span+1)-span
				if !r.OnBoard(x, y) {
					continue
				}
				s := r.Sq(x, y)
				if b.At(s) != game.Empty || (len(sq) == 1 && sq[0] == s) {
					continue
				}
				sq = append(sq, s)
			}
			m := game.NewMove(sq...)
			if b.Play(m) != nil {
				break
			}
			ts = append(ts, game.MoveName(r, m))
		}
		games[fmt.Sprint(100000+g)] = ts
	}
	return games
}
