package regclient_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/forgehq/forge/regclient"
	"github.com/forgehq/forge/testkit/disttest"
)

// TestDistributionRegistry runs the CNCF distribution registry
// (docker-registry) with the reference server's token service as its
// issuer, and pushes and pulls with forge's client. The realm names
// localhost rather than 127.0.0.1: go-containerregistry accepts a realm on
// another port only under a DNS name.
func TestDistributionRegistry(t *testing.T) {
	t.Parallel()
	if !disttest.Installed() {
		t.Skip("docker-registry is not installed (.ci/run installs it)")
	}
	e := newEnv(t)
	// The token service is the reference server, named otherwise than by
	// its address: another origin, which the client is told to trust.
	realm := "http://localhost:" + strings.TrimPrefix(e.srv.URL(), "http://127.0.0.1:")
	dist, err := disttest.Start(t.TempDir(), &disttest.Token{
		Realm:       realm + "/token",
		Issuer:      e.srv.Registry().Issuer(),
		Certificate: e.srv.Registry().CertificatePEM(),
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(dist.Close)
	url := dist.URL
	logs := func() string { b, _ := os.ReadFile(dist.Log); return string(b) }

	ctx := context.Background()
	c, err := regclient.New(regclient.Options{RegistryURL: url, Username: "alice", Password: passwords["alice"], Transport: e.transport, TokenOrigins: []string{realm}})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Login(ctx, "alice", passwords["alice"]); err != nil {
		t.Fatalf("login: %v\n%s", err, logs())
	}
	img := randomImage(t, 4096, 2)
	src := openTarball(t, e.dir, img)
	ref := mustRef(t, c, "app:1")
	res, err := c.Push(ctx, src, ref, regclient.PushOptions{})
	if err != nil {
		t.Fatalf("push: %v\n%s", err, logs())
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
	wrong, _ := regclient.New(regclient.Options{RegistryURL: url, Username: "alice", Password: "nope", Transport: e.transport, TokenOrigins: []string{realm}})
	if err := wrong.Login(ctx, "alice", "nope"); !errors.As(err, &re) || re.HTTPStatus() != 401 {
		t.Fatalf("wrong password: %v", err)
	}
}
