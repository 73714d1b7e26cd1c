package proofcheck

import (
	"c6book/engine/threat"
	"c6book/engine/verify"
)

// The tests of this package turn the prover's results into certificates
// with package enginecert's converters. enginecert imports this package, so
// these internal tests cannot import it; the external test file
// enginecert_test.go (package proofcheck_test) sets these to enginecert's
// functions in its init, which runs before any test or benchmark.
var (
	FromStrategy func(*threat.Strategy) *Tree
	ToStrategy   func(*Tree) *threat.Strategy
	FromVerdict  func(*verify.Verdict) *Cert
	ItemsOf      func(*verify.Verdict) Items
)
