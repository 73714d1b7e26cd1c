package c6book

import "testing"

func TestMarkShapeGlyph(t *testing.T) {
	for _, tc := range []struct {
		s    MarkShape
		want string
	}{
		{MarkCircle, "○"}, {MarkTriangle, "△"}, {MarkSquare, "□"}, {MarkCross, "×"},
		{MarkSelect, "•"}, {MarkNone, "•"}, {"hexagon", "•"},
	} {
		if got := tc.s.Glyph(); got != tc.want {
			t.Errorf("%q.Glyph() = %q, want %q", tc.s, got, tc.want)
		}
	}
}
