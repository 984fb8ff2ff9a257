// Package components holds the TUI's building blocks: a List of records
// loaded from the service (fetch, stale answers dropped, rows, open), a
// filterable table that draws only its visible rows, a pager that draws
// only its visible lines (a 10,000-line log costs what a 100-line one
// does), a read-only page of text (Doc), a line and text editor, a page of
// sections with its section bar, and a yes/no question.
package components
