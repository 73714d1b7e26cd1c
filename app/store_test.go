package main

import (
	"c6book/engine/threat"
	"c6book/proofbook"
	"c6book/service"
)

// newStore is the workbench's store over an open book (tests); limits,
// when set, bound the auto-pilot's solver calls.
func newStore(bk *proofbook.Book, limits threat.Limits) *service.Store {
	var o service.StoreOptions
	if limits != (threat.Limits{}) {
		o.Limits = func() threat.Limits { return limits }
	}
	return service.Wrap(bk).Store(o)
}
