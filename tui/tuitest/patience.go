//go:build !race

package tuitest

import "time"

// Patience is how long a test waits for a view before it fails (longer
// under the race detector: patience_race.go).
const Patience = 10 * time.Second
