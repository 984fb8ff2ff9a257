// Package output prints what commands return: on a terminal, aligned
// tables cut to the terminal's width with relative times; piped,
// tab-separated rows and ISO 8601 times for scripts; and --json, --jq and
// --template for every command that prints data.
package output
