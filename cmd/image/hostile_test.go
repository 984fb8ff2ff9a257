package image_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/forgehq/forge/refserver"
	"github.com/forgehq/forge/testkit/clitest"
	"github.com/forgehq/forge/testkit/servicefixture"
	"github.com/forgehq/forge/tui/tuitest"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
)

// hostileImage is tuitest.Image with tuitest.Marker in every string of
// its config and manifest a registry may show: annotations, labels,
// author, platform.
func hostileImage(t *testing.T) v1.Image {
	t.Helper()
	img := tuitest.Image(t, "hostile", "linux"+tuitest.Marker, "amd64"+tuitest.Marker)
	cfg, err := img.ConfigFile()
	if err != nil {
		t.Fatal(err)
	}
	cfg.Author = "mallory" + tuitest.Marker
	cfg.Config.Labels = map[string]string{"org.opencontainers.image.title" + tuitest.Marker: "app" + tuitest.Marker}
	if img, err = mutate.ConfigFile(img, cfg); err != nil {
		t.Fatal(err)
	}
	return mutate.Annotations(img, map[string]string{"org.opencontainers.image.description": "app" + tuitest.Marker}).(v1.Image)
}

// hostileIndex is an index of img with tuitest.Marker in the platform
// it names and in its annotations.
func hostileIndex(t *testing.T, img v1.Image) v1.ImageIndex {
	t.Helper()
	p := &v1.Platform{OS: "linux" + tuitest.Marker, Architecture: "amd64" + tuitest.Marker, Variant: "v1" + tuitest.Marker}
	idx := mutate.AppendManifests(empty.Index, mutate.IndexAddendum{Add: img, Descriptor: v1.Descriptor{Platform: p}})
	return mutate.Annotations(idx, map[string]string{"org.opencontainers.image.description": "multi" + tuitest.Marker}).(v1.ImageIndex)
}

// TestHostileRegistryNeverReachesTheTerminal: a registry that puts escape
// sequences (title, screen clear, clipboard, hyperlinks), C1 and bidi
// controls in every string it sends (tuitest.Hostile: tag and catalog
// names, the service's image records, error messages and details, the
// challenge's service and error; the image's own annotations, labels,
// author and platforms): no image command lets one through to a terminal,
// on stdout or stderr, and each that shows the registry's text shows it
// made visible. (Labels and author no command shows; the creation time is
// parsed and written by forge.)
func TestHostileRegistryNeverReachesTheTerminal(t *testing.T) {
	h := clitest.New(t)
	if _, err := h.Srv.CreateUser("dave", refserver.DemoPassword, ""); err != nil {
		t.Fatal(err)
	}
	if _, err := h.Srv.CreateUser("erin", refserver.DemoPassword, ""); err != nil {
		t.Fatal(err)
	}
	img := hostileImage(t)
	tuitest.Push(t, h.Srv, "dave", "dave/app:1", img)
	digest, err := img.Digest()
	if err != nil {
		t.Fatal(err)
	}
	tuitest.Push(t, h.Srv, "dave", "dave/multi:1", hostileIndex(t, img))
	tuitest.Push(t, h.Srv, "erin", "erin/web:1", tuitest.Image(t, "web", "linux", "amd64"))
	h.LoginAs("dave")
	proxy := tuitest.Hostile(t, h.Srv)
	h.Env["FORGE_BASE_URL"], h.Env["FORGE_REGISTRY_URL"] = proxy+"/api/v2", proxy
	h.Env["FORGE_USERNAME"], h.Env["FORGE_PASSWORD"] = "dave", refserver.DemoPassword
	dir := t.TempDir()
	tar := filepath.Join(dir, "app.tar")

	for _, c := range []struct {
		args  []string
		stdin string
		code  int // the exit code
		// quiet: the command succeeds without showing anything of the
		// registry's, so it is only checked for what leaks.
		quiet bool
	}{
		{args: []string{"image", "list"}},
		{args: []string{"image", "list", "--all"}, code: 1},
		{args: []string{"image", "tags", "app"}},
		{args: []string{"image", "inspect", "app:1"}},
		{args: []string{"image", "inspect", "app:1", "--json", "platform,manifest"}},
		// The manifest as the registry sent it: its annotations.
		{args: []string{"image", "inspect", "app:1", "--raw"}},
		{args: []string{"image", "tags", "app", "--json", "name,digest"}},
		{args: []string{"image", "list", "--json", "name,tags"}},
		{args: []string{"image", "inspect", "app:nothere"}, code: 1, quiet: true},
		{args: []string{"image", "inspect", "multi:1"}},
		{args: []string{"image", "inspect", "multi:1", "--raw"}},
		{args: []string{"image", "tags", "multi"}},
		{args: []string{"image", "pull", "multi:1", filepath.Join(dir, "m.tar"), "--platform", "linux/arm64"}, code: 1},
		{args: []string{"image", "pull", "app:1", tar}, quiet: true},
		{args: []string{"image", "push", tar, "app:2"}, quiet: true},
		{args: []string{"image", "push", tar, "erin/web:2"}, code: 1, quiet: true},
		{args: []string{"image", "delete", "erin/web:1", "--yes"}, code: 1, quiet: true},
		{args: []string{"image", "delete", "app:2", "--yes"}, quiet: true},
		// By digest: forge names the tags the registry lists for it.
		{args: []string{"image", "delete", "app@" + digest.String(), "--yes"}},
		{args: []string{"image", "login", "--username", "dave", "--password-stdin"}, stdin: refserver.DemoPassword, quiet: true},
		{args: []string{"image", "login", "--username", "dave", "--password-stdin"}, stdin: "wrong-password", code: 4, quiet: true},
	} {
		r := h.Run(clitest.Run{TTY: true, ErrTTY: true, Stdin: c.stdin}, c.args...)
		if r.Code != c.code {
			t.Errorf("forge %s: exit %d, want %d:\n%s", strings.Join(c.args, " "), r.Code, c.code, r.Output())
		}
		out := r.Out + r.Err
		if !c.quiet && !strings.Contains(out, "^[") && !strings.Contains(out, `\u001b`) { // ESC as forge shows it
			t.Errorf("forge %s showed none of the registry's text (exit %d):\n%s", strings.Join(c.args, " "), r.Code, r.Output())
		}
		for name, s := range map[string]string{"stdout": r.Out, "stderr": r.Err} {
			if ch, bad := servicefixture.Unsafe(s); bad {
				t.Errorf("forge %s: %U reached the terminal on %s:\n%q", strings.Join(c.args, " "), ch, name, s)
			}
		}
	}
}

// TestHostileRealmOnATerminal: a registry whose challenge sends logins to
// a token service on another host, named with C1 and bidi controls (all
// of tuitest.Marker a header can carry): the question image login asks,
// and its answer when there is none, show the host made visible.
func TestHostileRealmOnATerminal(t *testing.T) {
	// A host takes no brackets or semicolons: the C1 and bidi controls.
	controls := strings.Map(func(r rune) rune {
		if r < 0x80 {
			return -1
		}
		return r
	}, tuitest.HeaderMarker)
	reg := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("WWW-Authenticate", `Bearer realm="http://evil`+controls+`.example/token",service="registry`+tuitest.HeaderMarker+`"`)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnauthorized)
		io.WriteString(w, `{"errors":[{"code":"UNAUTHORIZED","message":"log in`+strings.ReplaceAll(tuitest.HeaderMarker, `"`, ``)+`"}]}`)
	}))
	t.Cleanup(reg.Close)
	h := clitest.Against(t, reg.URL+"/api/v2", "")
	h.Env["FORGE_REGISTRY_URL"] = reg.URL
	r := h.Run(clitest.Run{TTY: true, ErrTTY: true, Stdin: "pw"}, "image", "login", "--username", "dave", "--password-stdin")
	shown := strings.Join(append(r.Questions, r.Out, r.Err), "\n")
	if r.Code == 0 || !strings.Contains(shown, "<U+202E>") {
		t.Errorf("exit %d; want a failure that names the token host made visible; asked %q\n%s", r.Code, r.Questions, r.Output())
	}
	if ch, bad := servicefixture.Unsafe(shown); bad {
		t.Errorf("%U reached the terminal; asked %q\n%s", ch, r.Questions, r.Output())
	}
}
