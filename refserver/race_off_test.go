//go:build !race

package refserver_test

const raceDetector = false
