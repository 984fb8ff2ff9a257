//go:build race

package refserver_test

// raceDetector: the package's tests run under -race (.ci/run's race
// step), where go-git's packing is many times slower.
const raceDetector = true
