// Package build holds the version stamp of the forge binary.
//
// Release builds set the variables with
//
//	-ldflags "-X github.com/forgehq/forge/internal/build.Version=1.2.3
//	          -X github.com/forgehq/forge/internal/build.Commit=abc1234
//	          -X github.com/forgehq/forge/internal/build.Date=2026-11-22T00:00:00Z"
//
// A plain `go build` leaves the "dev" defaults; `go install ...@v1.2.3` is
// recognised from the module's build info.
package build

import "runtime/debug"

var (
	// Version is the release version, without a leading "v".
	Version = "dev"
	// Commit is the git commit the binary was built from.
	Commit = "none"
	// Date is the build time, ISO 8601 UTC.
	Date = "unknown"
)

// String returns the version line `forge --version` prints.
func String() string {
	return "forge version " + effectiveVersion() + " (commit " + Commit + ", built " + Date + ")"
}

// UserAgent is the User-Agent header every forge HTTP client sends.
func UserAgent() string { return "forge/" + effectiveVersion() }

func effectiveVersion() string {
	if Version != "dev" {
		return Version
	}
	// Reading the build info costs a little; only the version paths call it.
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		v := bi.Main.Version
		if len(v) > 1 && v[0] == 'v' {
			v = v[1:]
		}
		return v
	}
	return Version
}
