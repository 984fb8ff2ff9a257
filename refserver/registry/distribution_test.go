package registry_test

import (
	"encoding/base64"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/forgehq/forge/refserver/registry"
	"github.com/google/go-containerregistry/pkg/name"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
)

// The token service as the issuer of a registry forge did not write:
// Debian's docker-registry (CNCF distribution 2.8), configured the way
// refserver/README.md says, with the certificate fetched over HTTP from
// the token service, driven by crane and skopeo.
func TestTokenServiceForDistribution(t *testing.T) {
	bin, err := exec.LookPath("docker-registry")
	if err != nil {
		t.Skip("docker-registry is not installed (.ci/run installs it)")
	}
	f := newFixture(t, "")
	dir := t.TempDir()

	resp, err := http.Get(f.url + registry.CertificatePath)
	if err != nil {
		t.Fatal(err)
	}
	cert, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.HasPrefix(string(cert), "-----BEGIN CERTIFICATE-----") {
		t.Fatalf("GET %s: %d %q", registry.CertificatePath, resp.StatusCode, cert)
	}
	certPath := filepath.Join(dir, "token.crt")
	if err := os.WriteFile(certPath, cert, 0o644); err != nil {
		t.Fatal(err)
	}
	host := startDistribution(t, bin, dir, certPath, "localhost:"+strings.TrimPrefix(f.host, "127.0.0.1:"))

	img := randomImage(t)
	tarPath := filepath.Join(dir, "img.tar")
	if err := tarball.WriteToFile(tarPath, name.MustParseReference("app:1"), img); err != nil {
		t.Fatal(err)
	}
	digest, _ := img.Digest()

	if crane, err := exec.LookPath("crane"); err != nil {
		t.Log("crane is not installed: its part is skipped")
	} else {
		t.Run("crane", func(t *testing.T) {
			// crane reads credentials from a Docker config.
			cfg := filepath.Join(dir, "docker")
			os.MkdirAll(cfg, 0o700)
			auth := func(user string) string {
				return base64.StdEncoding.EncodeToString([]byte(user + ":" + testUsers[user].password))
			}
			writeDockerConfig := func(user string) {
				t.Helper()
				conf := fmt.Sprintf(`{"auths":{%q:{"auth":%q}}}`, host, auth(user))
				if err := os.WriteFile(filepath.Join(cfg, "config.json"), []byte(conf), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			run := func(args ...string) (string, error) {
				cmd := exec.Command(crane, append([]string{"--insecure"}, args...)...)
				cmd.Env = append(os.Environ(), "DOCKER_CONFIG="+cfg)
				out, err := cmd.CombinedOutput()
				return string(out), err
			}
			writeDockerConfig("alice")
			if out, err := run("push", tarPath, host+"/alice/app:1"); err != nil {
				t.Fatalf("crane push as alice: %v\n%s", err, out)
			}
			out, err := run("digest", host+"/alice/app:1")
			if err != nil || strings.TrimSpace(out) != digest.String() {
				t.Fatalf("crane digest: %v %q, want %s", err, out, digest)
			}
			if out, err := run("pull", host+"/alice/app:1", filepath.Join(dir, "pulled.tar")); err != nil {
				t.Fatalf("crane pull as alice: %v\n%s", err, out)
			}
			out, err = run("push", tarPath, host+"/bob/app:1")
			if err == nil || !strings.Contains(out, "401") && !strings.Contains(out, "DENIED") {
				t.Fatalf("crane push into bob's namespace as alice: %v\n%s", err, out)
			}
			// The catalog lists every user's repositories: site admins only.
			if out, err := run("catalog", host); err == nil {
				t.Fatalf("alice read distribution's whole catalog:\n%s", out)
			}
			writeDockerConfig("root")
			if out, err := run("catalog", host); err != nil || !strings.Contains(out, "alice/app") || strings.Contains(out, "bob/") {
				t.Fatalf("the site admin's catalog (alice/app, nothing of bob's): %v\n%s", err, out)
			}
		})
	}

	if skopeo, err := exec.LookPath("skopeo"); err != nil {
		t.Log("skopeo is not installed: its part is skipped")
	} else {
		t.Run("skopeo", func(t *testing.T) {
			creds := "alice:" + testUsers["alice"].password
			copyImage := func(src, dst string, extra ...string) (string, error) {
				args := append([]string{"copy", "--retry-times", "0"}, extra...)
				cmd := exec.Command(skopeo, append(args, src, dst)...)
				cmd.Env = append(os.Environ(), "REGISTRY_AUTH_FILE="+filepath.Join(dir, "skopeo-auth.json"))
				out, err := cmd.CombinedOutput()
				return string(out), err
			}
			if out, err := copyImage("docker-archive:"+tarPath, "docker://"+host+"/alice/skopeo:1", "--dest-creds", creds, "--dest-tls-verify=false"); err != nil {
				t.Fatalf("skopeo push as alice: %v\n%s", err, out)
			}
			if out, err := copyImage("docker://"+host+"/alice/skopeo:1", "oci:"+filepath.Join(dir, "oci")+":1", "--src-creds", creds, "--src-tls-verify=false"); err != nil {
				t.Fatalf("skopeo pull as alice: %v\n%s", err, out)
			}
			out, err := copyImage("docker-archive:"+tarPath, "docker://"+host+"/bob/skopeo:1", "--dest-creds", creds, "--dest-tls-verify=false")
			if err == nil {
				t.Fatalf("skopeo pushed into bob's namespace as alice:\n%s", out)
			}
		})
	}
}

// startDistribution runs docker-registry with the token service at realm
// as its issuer and returns its host:port.
func startDistribution(t *testing.T, bin, dir, certPath, realmHost string) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	config := fmt.Sprintf(`version: 0.1
log:
  level: error
storage:
  filesystem:
    rootdirectory: %s
http:
  addr: %s
auth:
  token:
    realm: http://%s/token
    service: my-registry
    issuer: forge-token-service
    rootcertbundle: %s
`, filepath.Join(dir, "data"), addr, realmHost, certPath)
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
	// Waiting for a server to listen is not a timed assertion: the
	// deadline only stops a test whose registry never starts.
	deadline := time.Now().Add(30 * time.Second)
	for {
		resp, err := http.Get("http://" + addr + "/v2/")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusUnauthorized {
				return addr
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("docker-registry did not come up: %v\n%s", err, logs.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// The signing certificate is served to anyone, as the one Go hands out.
func TestCertificateServed(t *testing.T) {
	f := newFixture(t, "")
	resp, err := http.Get(f.url + registry.CertificatePath)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || string(body) != string(f.reg.CertificatePEM()) || resp.Header.Get("Content-Type") != "application/x-pem-file" {
		t.Fatalf("GET %s: %d %q %q", registry.CertificatePath, resp.StatusCode, resp.Header.Get("Content-Type"), body)
	}
}
