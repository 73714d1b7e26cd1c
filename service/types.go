package service

import (
	"errors"

	"c6book/bookfile"
	"c6book/bookmerge"
	"c6book/proofbook"
)

// The store's value types the use cases report with, named here so that
// the callers need only this package.
type (
	// ImportProgress is what an import's committed transactions hold.
	ImportProgress = proofbook.ImportProgress
	// ImportStats summarises an import.
	ImportStats = proofbook.ImportStats
	// MergeProgress is how far a merge or split is.
	MergeProgress = bookmerge.Progress
	// MergeSummary is what a merge or split added (counts, typed refusals).
	MergeSummary = bookmerge.Summary
	// CheckProgress is how many proofs a check has re-checked.
	CheckProgress = proofbook.CheckProgress
	// CheckReport is what a check found.
	CheckReport = proofbook.CheckReport
	// ExportStats says what an SGF export wrote.
	ExportStats = bookfile.ExportStats
	// ProofExportStats says what a proof export wrote.
	ProofExportStats = bookfile.ProofExportStats
)

// Damaged reports whether err says the book is damaged (Book.CheckWritable
// found SQLite reporting it so): the book is then read-only.
func Damaged(err error) bool { return errors.Is(err, proofbook.ErrDamaged) }
