package proofcheck_test

import (
	"c6book/proofcheck"
	"c6book/proofcheck/enginecert"
)

// init hands package enginecert's converters to the internal tests
// (export_test.go), which cannot import enginecert themselves.
func init() {
	proofcheck.FromStrategy = enginecert.FromStrategy
	proofcheck.ToStrategy = enginecert.ToStrategy
	proofcheck.FromVerdict = enginecert.FromVerdict
	proofcheck.ItemsOf = enginecert.ItemsOf
}
