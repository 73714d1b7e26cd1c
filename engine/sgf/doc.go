// Package sgf reads and writes Smart Game Format for Connect(m,n,k,p,q):
// a bounded streaming scanner (SGFScanner, ReadSGF, ParseSGF), the node
// tree and its writer (WriteSGF, SGFWriter), and the conversions between
// SGF game trees and turns (GameFromSGF, LineFromSGF, GameToSGF).
//
// It imports the standard library, engine/game and engine/board only.
package sgf
