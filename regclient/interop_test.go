package regclient_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/forgehq/forge/regclient"
)

// freePort returns a loopback port nobody listens on (yet).
func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// TestDistributionRegistry runs the CNCF distribution registry
// (docker-registry) with the reference server's token service as its
// issuer, and pushes and pulls with forge's client. The realm names
// localhost rather than 127.0.0.1: go-containerregistry accepts a realm on
// another port only under a DNS name.
func TestDistributionRegistry(t *testing.T) {
	t.Parallel()
	bin, err := exec.LookPath("docker-registry")
	if err != nil {
		t.Skip("docker-registry is not installed (.ci/run installs it)")
	}
	e := newEnv(t)
	dir := t.TempDir()
	cert := filepath.Join(dir, "token.crt")
	if err := os.WriteFile(cert, e.srv.Registry().CertificatePEM(), 0o644); err != nil {
		t.Fatal(err)
	}
	port := freePort(t)
	refPort := strings.TrimPrefix(e.srv.URL(), "http://127.0.0.1:")
	config := fmt.Sprintf(`version: 0.1
log:
  level: error
storage:
  filesystem:
    rootdirectory: %s
  delete:
    enabled: true
http:
  addr: 127.0.0.1:%d
auth:
  token:
    realm: http://localhost:%s/token
    service: forge-distribution
    issuer: %s
    rootcertbundle: %s
`, filepath.Join(dir, "data"), port, refPort, e.srv.Registry().Issuer(), cert)
	cfgPath := filepath.Join(dir, "config.yml")
	if err := os.WriteFile(cfgPath, []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "serve", cfgPath)
	var logs strings.Builder
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	url := fmt.Sprintf("http://127.0.0.1:%d", port)
	deadline := time.Now().Add(10 * time.Second)
	for {
		resp, err := http.Get(url + "/v2/")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusUnauthorized {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("docker-registry did not come up: %v\n%s", err, logs.String())
		}
		time.Sleep(20 * time.Millisecond)
	}

	ctx := context.Background()
	c, err := regclient.New(regclient.Options{RegistryURL: url, Username: "alice", Password: passwords["alice"], Transport: e.transport})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Login(ctx, "alice", passwords["alice"]); err != nil {
		t.Fatalf("login: %v\n%s", err, logs.String())
	}
	img := randomImage(t, 4096, 2)
	src, err := regclient.Open(writeTarball(t, e.dir, img), regclient.OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	ref := mustRef(t, c, "app:1")
	res, err := c.Push(ctx, src, ref, regclient.PushOptions{})
	if err != nil {
		t.Fatalf("push: %v\n%s", err, logs.String())
	}
	if res.Sent != 2 {
		t.Fatalf("push result %+v", res)
	}
	pr, err := c.Pull(ctx, ref, filepath.Join(e.dir, "dist.tar"), nil, regclient.PullOptions{})
	if err != nil || pr.Digest != digestOf(t, img) {
		t.Fatalf("pull: %+v, %v", pr, err)
	}
	tags, _, err := c.Tags(ctx, ref.Context())
	if err != nil || len(tags) != 1 || tags[0].Name != "1" {
		t.Fatalf("tags: %+v, %v", tags, err)
	}

	// The token service's policy holds on the other registry too.
	_, err = c.Push(ctx, src, mustRef(t, c, "bob/app:1"), regclient.PushOptions{})
	var re *regclient.Error
	if !errors.As(err, &re) || (re.HTTPStatus() != 401 && re.HTTPStatus() != 403) {
		t.Fatalf("push to bob/: %v", err)
	}
	wrong, _ := regclient.New(regclient.Options{RegistryURL: url, Username: "alice", Password: "nope", Transport: e.transport})
	if err := wrong.Login(ctx, "alice", "nope"); !errors.As(err, &re) || re.HTTPStatus() != 401 {
		t.Fatalf("wrong password: %v", err)
	}
}
