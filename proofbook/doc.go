// Package proofbook is the SQLite store of opening trees, annotations and
// proofs. It is the only package that runs SQL.
package proofbook

import _ "github.com/mattn/go-sqlite3" // the SQLite driver, registered as "sqlite3"
