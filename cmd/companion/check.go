package companion

import (
	"fmt"
	"path/filepath"
	"runtime/debug"
	"strings"

	"github.com/forgehq/forge/internal/build"
)

// check refuses an installed companion that is not forge's (another
// program of that name) or not of forge's version: a forge-server of
// another release may take other flags or serve another API than this
// forge speaks. It reads the binary's build info from its file
// (readBuildInfo), so nothing runs before it is known to be forge's; an
// error names the fix.
func check(path, binary string) error {
	theirs, err := readBuildInfo(path)
	ours, ok := debug.ReadBuildInfo()
	if err != nil || !ok || !sameProgram(theirs.Path, ours.Path, binary) {
		return fmt.Errorf("%s is not forge's %s: remove it, or install forge again from a release or package, which ships both", path, binary)
	}
	if have, want := build.Stamp(theirs), build.Stamp(ours); have != want {
		dir := filepath.Dir(path)
		return fmt.Errorf("%s is version %s but forge is %s: install forge and its companions from one release or package (or build them together: `go build -o %s ./cmd/forge ./cmd/%s`)",
			path, have, want, dir+string(filepath.Separator), binary)
	}
	return nil
}

// sameProgram says whether a binary whose main package is theirs is
// forge's companion binary. A test binary plays forge and its companions
// under their names (companiontest.Install), so it passes as its own.
func sameProgram(theirs, ours, binary string) bool {
	return theirs == module+"/cmd/"+binary || strings.HasSuffix(ours, ".test") && theirs == ours
}
