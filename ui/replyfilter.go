package ui

import (
	"fmt"
	"strconv"
	"strings"

	"c6book"
	"c6book/engine/game"
	"c6book/session"
)

// The Replies filter. After j10 a big games book stores some 180 replies,
// most of them played once; a RenLib user hides those to read the tree.
// The filter hides replies from the board and the Replies list, never from
// the book: the letters stay those of the full list (a reply's letter is
// its rank there, so hiding does not re-letter), the navigation keys
// still reach every reply, and the reply the line goes on with is always
// shown.

// ReplyFilter chooses the stored replies shown. The zero value shows all.
type ReplyFilter struct {
	// MinGames hides the replies played in fewer games, unless they are
	// book moves.
	MinGames int64
	// BookOnly shows the book moves only.
	BookOnly bool
}

// Book moves are the replies the book's users worked on: with a status
// (a verdict, a proof or a disproof), a label, or a comment or marks.
func bookMove(c session.Child) bool {
	return c.Status != c6book.StatusUnknown || c.Label != "" || c.Note
}

// keeps reports whether the filter shows reply c.
func (f ReplyFilter) keeps(c session.Child) bool {
	if bookMove(c) {
		return true
	}
	return !f.BookOnly && c.Games.Games >= f.MinGames
}

// replyFilters are the filters offered, in the menu's order.
var replyFilters = [...]ReplyFilter{{}, {MinGames: 2}, {MinGames: 5}, {MinGames: 20}, {BookOnly: true}}

// label is the filter's name in the board panel's menu: "All replies",
// "5+ games" (played in 5 games or more, and the book moves), "Book moves"
// (only).
func (f ReplyFilter) label() string {
	switch {
	case f.BookOnly:
		return "Book moves"
	case f.MinGames > 1:
		return fmt.Sprintf("%d+ games", f.MinGames)
	}
	return "All replies"
}

// String is the filter as the preferences store it: "all", "games:N",
// "book" (ParseReplyFilter reads it).
func (f ReplyFilter) String() string {
	switch {
	case f.BookOnly:
		return "book"
	case f.MinGames > 1:
		return "games:" + strconv.FormatInt(f.MinGames, 10)
	}
	return "all"
}

// ParseReplyFilter reads a filter written by String (one of those the
// menu offers).
func ParseReplyFilter(s string) (ReplyFilter, error) {
	switch s {
	case "all", "":
		return ReplyFilter{}, nil
	case "book":
		return ReplyFilter{BookOnly: true}, nil
	}
	if n, ok := strings.CutPrefix(s, "games:"); ok {
		for _, f := range replyFilters {
			if v, err := strconv.ParseInt(n, 10, 64); err == nil && f.MinGames == v && !f.BookOnly {
				return f, nil
			}
		}
	}
	return ReplyFilter{}, fmt.Errorf("reply filter %q: want all, book or games:N with N one of 2, 5, 20", s)
}

// hiddenReplies is which of kids (the Replies list, in order) the filter
// hides, nil when none; next is the move the line goes on with (shown
// whatever the filter) when hasNext.
func hiddenReplies(f ReplyFilter, kids []session.Child, next game.Move, hasNext bool) []bool {
	if f == (ReplyFilter{}) {
		return nil
	}
	var hide []bool
	for i, c := range kids {
		if f.keeps(c) || (hasNext && c.Move == next) {
			continue
		}
		if hide == nil {
			hide = make([]bool, len(kids))
		}
		hide[i] = true
	}
	return hide
}
