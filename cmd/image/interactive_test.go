package image_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/testkit/clitest"
	"github.com/google/go-containerregistry/pkg/name"
	"github.com/google/go-containerregistry/pkg/v1/random"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
	"github.com/zalando/go-keyring"
)

// TestMain gives the tests go-keyring's in-memory keyring: never the
// keyring of the machine they run on.
func TestMain(m *testing.M) {
	keyring.MockInit()
	os.Exit(m.Run())
}

// These tests drive the prompts of forge image (testscript has no
// terminal) with a scripted Prompter, against a reference server.

// harness is forge against a reference server with alice, through a
// profile dev that names the server (no FORGE_BASE_URL).
type harness struct {
	*clitest.Harness
	t   *testing.T
	dir string
}

func newHarness(t *testing.T) *harness {
	t.Helper()
	h := &harness{Harness: clitest.New(t), t: t, dir: t.TempDir()}
	delete(h.Env, "FORGE_BASE_URL")
	h.Env["FORGE_CONFIG_DIR"], h.Env["HOME"] = filepath.Join(h.dir, "config"), h.dir
	if _, err := h.Srv.CreateUser("alice", "alice-password-1", ""); err != nil {
		t.Fatal(err)
	}
	h.run(nil, "profile", "add", "dev", "--base-url", h.Srv.BaseURL())
	return h
}

// run runs forge on a pretend terminal, answering its questions; it
// returns the exit code and stderr.
func (h *harness) run(a []any, args ...string) (int, string) {
	h.t.Helper()
	r := h.Run(clitest.Run{TTY: true, Answers: a, Strict: true}, args...)
	return r.Code, r.Err
}

func (h *harness) config() string {
	b, _ := os.ReadFile(filepath.Join(h.dir, "config", "config.yaml"))
	return string(b)
}

// Not parallel: cmd.Run sets cobra's globals.

func TestLoginPrompts(t *testing.T) {
	h := newHarness(t)
	code, errOut := h.run([]any{"alice", "alice-password-1"}, "image", "login")
	if code != 0 || !strings.Contains(errOut, "Logged in to 127.0.0.1:") || strings.Contains(errOut, "alice-password-1") {
		t.Fatalf("login: %d %q", code, errOut)
	}
	if cfg := h.config(); !strings.Contains(cfg, "registry_user: alice") || !strings.Contains(cfg, "in_keyring: [registry_password]") || strings.Contains(cfg, "alice-password-1") {
		t.Fatalf("credentials not stored in the keyring:\n%s", cfg)
	}
	before := h.config()
	code, errOut = h.run([]any{"wrong-password"}, "image", "login", "--username", "alice")
	if code != cmdcore.ExitAuth || !strings.Contains(errOut, "nothing was stored") {
		t.Fatalf("wrong password: %d %q", code, errOut)
	}
	if h.config() != before {
		t.Fatal("a failed login changed the config file")
	}
}

func TestDeleteAsks(t *testing.T) {
	h := newHarness(t)
	img, _ := random.Image(1024, 1)
	tag, _ := name.NewTag("x/y:1")
	tb := filepath.Join(h.dir, "app.tar")
	if err := tarball.WriteToFile(tb, tag, img); err != nil {
		t.Fatal(err)
	}
	h.run([]any{"alice", "alice-password-1"}, "image", "login")
	if code, errOut := h.run(nil, "image", "push", tb, "app:1"); code != 0 {
		t.Fatalf("push: %s", errOut)
	}
	// A digest that a tag names: asked first.
	d, _ := img.Digest()
	byDigest := "app@" + d.String()
	code, errOut := h.run([]any{"n"}, "image", "delete", byDigest)
	if code != 1 || !strings.Contains(errOut, "removes the manifest sha256:") || !strings.Contains(errOut, "the tag 1.") || !strings.Contains(errOut, "Nothing deleted.") {
		t.Fatalf("declined delete: %d %q", code, errOut)
	}
	if code, _ := h.run(nil, "image", "tags", "app"); code != 0 {
		t.Fatal("the image went although the delete was declined")
	}
	if code, errOut = h.run([]any{"y"}, "image", "delete", byDigest); code != 0 || !strings.Contains(errOut, "Deleted") {
		t.Fatalf("confirmed delete: %d %q", code, errOut)
	}
	if code, _ := h.run(nil, "image", "tags", "app"); code != 1 {
		t.Fatal("the image is still there")
	}
	// A tag alone: asked too, as every delete; no keeps it, yes deletes
	// it and the manifest stays.
	h.run(nil, "image", "push", tb, "app:1")
	h.run(nil, "image", "copy", "app:1", "app:2")
	r := h.Run(clitest.Run{TTY: true, Answers: []any{"n"}, Strict: true}, "image", "delete", "app:1")
	if r.Code != 1 || !strings.Contains(r.Err, "Nothing deleted.") || len(r.Questions) != 1 || !strings.HasPrefix(r.Questions[0], "Delete the tag ") || !strings.HasSuffix(r.Questions[0], "/alice/app:1?") {
		t.Fatalf("declined tag delete: %d %q %q", r.Code, r.Questions, r.Err)
	}
	if code, _ := h.run(nil, "image", "inspect", "app:1"); code != 0 {
		t.Fatal("the tag went although the delete was declined")
	}
	if code, errOut = h.run([]any{"y"}, "image", "delete", "app:1"); code != 0 || !strings.Contains(errOut, "Deleted the tag") {
		t.Fatalf("tag delete: %d %q", code, errOut)
	}
	// A mistyped tag fails before the question.
	if code, errOut = h.run(nil, "image", "delete", "app:nope"); code != 1 || strings.Contains(errOut, "Delete the tag") {
		t.Fatalf("missing tag: %d %q", code, errOut)
	}
	if code, errOut = h.run(nil, "image", "inspect", "app:2"); code != 0 {
		t.Fatalf("the manifest went with the tag: %q", errOut)
	}
}
