// Package jobsearch is a job-level proof-number search (JobSearch) over a
// small tree interface (JobTree): leaf expansions are jobs that run for
// seconds or minutes, several at once. It knows nothing of what the nodes
// stand for; its callers name them.
//
// It imports the standard library and internal/latest (progress reports)
// only.
package jobsearch
