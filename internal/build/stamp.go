package build

import (
	"runtime/debug"
	"strings"
)

// pkg is this package's import path, as -ldflags -X names its variables.
const pkg = "github.com/forgehq/forge/internal/build"

// Stamp says which build of forge a binary's build info describes: its
// version and commit, as `forge --version` reads them (the ldflags a
// release sets, else the module version and the VCS stamp). forge reads
// its own with debug.ReadBuildInfo and a companion's from its file with
// debug/buildinfo, so two binaries are compared without running either;
// equal stamps mean the same release (or the same commit of a clone). A
// build that records neither (a source tree outside git, -buildvcs=false)
// is "dev" and cannot be told from another such build.
func Stamp(bi *debug.BuildInfo) string {
	version, commit, revision, dirty := bi.Main.Version, "", "", false
	for _, s := range bi.Settings {
		switch s.Key {
		case "-ldflags": // recorded without -trimpath only
			for _, f := range strings.Fields(s.Value) {
				f = strings.TrimPrefix(f, "-X=")
				if v, ok := strings.CutPrefix(f, pkg+".Version="); ok {
					version = v
				} else if v, ok := strings.CutPrefix(f, pkg+".Commit="); ok {
					commit = v
				}
			}
		case "vcs.revision":
			revision = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if version == "" || version == "(devel)" {
		version = "dev"
	}
	version = strings.TrimPrefix(strings.TrimSuffix(version, "+dirty"), "v")
	if commit == "" && revision != "" {
		commit = revision[:min(12, len(revision))]
		if dirty {
			commit += "-dirty"
		}
	}
	if commit == "" {
		return version
	}
	return version + " (commit " + commit + ")"
}
