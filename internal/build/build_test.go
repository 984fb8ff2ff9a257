package build

import (
	"runtime/debug"
	"testing"
)

// A plain `go build` in a clone: a pseudo-version and the VCS stamp, no
// ldflags. The line names the commit and its time, not "none" and
// "unknown".
func TestDescribeFromBuildInfo(t *testing.T) {
	bi := &debug.BuildInfo{
		Main: debug.Module{Version: "v0.0.0-20261125211000-6ff20c1eaa1f+dirty"},
		Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "6ff20c1eaa1f0123456789abcdef0123456789ab"},
			{Key: "vcs.time", Value: "2026-11-25T21:10:00Z"},
			{Key: "vcs.modified", Value: "true"},
		},
	}
	want := "forge version 0.0.0-20261125211000-6ff20c1eaa1f (commit 6ff20c1eaa1f-dirty, built 2026-11-25T21:10:00Z)"
	if got := describe(bi); got != want {
		t.Errorf("describe = %q\nwant       %q", got, want)
	}
	// No stamp at all (go test, go run without VCS): the version alone.
	if got := describe(&debug.BuildInfo{}); got != "forge version dev" {
		t.Errorf("describe(empty) = %q", got)
	}
}

// Release ldflags win over the build info.
func TestDescribeLdflags(t *testing.T) {
	defer func(v, c, d string) { Version, Commit, Date = v, c, d }(Version, Commit, Date)
	Version, Commit, Date = "1.2.3", "abc1234", "2026-11-22T00:00:00Z"
	bi := &debug.BuildInfo{Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "ffff"}}}
	if got, want := describe(bi), "forge version 1.2.3 (commit abc1234, built 2026-11-22T00:00:00Z)"; got != want {
		t.Errorf("describe = %q, want %q", got, want)
	}
}

// Stamp reads a release's ldflags when the build kept them, else the
// module version and the VCS stamp: two builds of one commit agree, two
// releases do not.
func TestStamp(t *testing.T) {
	for _, c := range []struct {
		bi   debug.BuildInfo
		want string
	}{
		{debug.BuildInfo{}, "dev"},
		{debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "dev"},
		{debug.BuildInfo{Main: debug.Module{Version: "v1.2.3"}, Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "6ff20c1eaa1f0123456789abcdef0123456789ab"}}}, "1.2.3 (commit 6ff20c1eaa1f)"},
		{debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261125211000-6ff20c1eaa1f+dirty"}, Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "6ff20c1eaa1f0123456789abcdef0123456789ab"}, {Key: "vcs.modified", Value: "true"}}},
			"0.0.0-20261125211000-6ff20c1eaa1f (commit 6ff20c1eaa1f-dirty)"},
		{debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{
			{Key: "-ldflags", Value: "-s -w -X github.com/forgehq/forge/internal/build.Version=1.2.4 -X=github.com/forgehq/forge/internal/build.Commit=abc1234"},
			{Key: "vcs.revision", Value: "6ff20c1eaa1f0123456789abcdef0123456789ab"}}}, "1.2.4 (commit abc1234)"},
	} {
		if got := Stamp(&c.bi); got != c.want {
			t.Errorf("Stamp(%+v) = %q, want %q", c.bi, got, c.want)
		}
	}
}
