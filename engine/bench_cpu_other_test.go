//go:build !unix

package engine

import "testing"

// cpuMetric reports nothing where getrusage is unavailable.
func cpuMetric(b *testing.B) func() { return func() {} }
