//go:build race

package tuitest

import "time"

// Patience is how long a test waits for a view before it fails: the race
// detector (.ci/run's race step) makes every program several times
// slower, so it waits longer there. It bounds a wait for a condition; no
// test waits it out when the condition comes.
const Patience = 60 * time.Second
