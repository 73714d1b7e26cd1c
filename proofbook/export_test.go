package proofbook

// CountRows runs a count query q on bk's read connection: the external
// tests (package proofbook_test) count rows no exported method counts.
func CountRows(bk *Book, q string) (int, error) {
	var n int
	err := bk.r.QueryRow(q).Scan(&n)
	return n, err
}
