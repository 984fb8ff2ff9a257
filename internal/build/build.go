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

import (
	"runtime/debug"
	"strings"
)

var (
	// Version is the release version, without a leading "v".
	Version = "dev"
	// Commit is the git commit the binary was built from.
	Commit = "none"
	// Date is the build time, ISO 8601 UTC.
	Date = "unknown"
)

// String returns the version line `forge --version` prints. A binary
// built by plain `go build` in a clone has no ldflags but carries the
// commit and its time in its build info (vcs.revision, vcs.time): those
// are shown instead of "none" and "unknown".
func String() string {
	bi, _ := debug.ReadBuildInfo()
	return describe(bi)
}

func describe(bi *debug.BuildInfo) string {
	commit, date, dirty := Commit, Date, false
	if bi != nil {
		for _, s := range bi.Settings {
			switch {
			case s.Key == "vcs.revision" && commit == "none":
				commit = s.Value
				if len(commit) > 12 {
					commit = commit[:12]
				}
			case s.Key == "vcs.time" && date == "unknown":
				date = s.Value
			case s.Key == "vcs.modified" && s.Value == "true" && Commit == "none":
				dirty = true
			}
		}
	}
	if dirty {
		commit += "-dirty"
	}
	v := version(bi)
	if commit == "none" && date == "unknown" {
		return "forge version " + v
	}
	return "forge version " + v + " (commit " + commit + ", built " + date + ")"
}

// UserAgent is the User-Agent header every forge HTTP client sends.
func UserAgent() string { return "forge/" + effectiveVersion() }

func effectiveVersion() string {
	if Version != "dev" {
		return Version
	}
	// Reading the build info costs a little; only the version paths call it.
	bi, _ := debug.ReadBuildInfo()
	return version(bi)
}

func version(bi *debug.BuildInfo) string {
	if Version != "dev" {
		return Version
	}
	if bi != nil && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		v := strings.TrimSuffix(bi.Main.Version, "+dirty")
		if len(v) > 1 && v[0] == 'v' {
			v = v[1:]
		}
		return v
	}
	return Version
}
