package main

import (
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/forgehq/forge/refserver"
	"github.com/rogpeppe/go-internal/testscript"
)

func init() { scriptCmds["dist"] = distCmd }

// distCmd runs Debian's docker-registry (the CNCF distribution registry),
// a registry forge did not write, for the script:
//
//	dist NAME [-token]  start one on a free 127.0.0.1 port, storing under
//	                    $WORK/NAME, with deletes enabled; exports
//	                    NAME_HOST (127.0.0.1:PORT), NAME_URL
//	                    (http://NAME_HOST) and NAME_PORT. Without -token
//	                    it takes any push from anyone; with -token it
//	                    accepts only tokens of the script's reference
//	                    server (realm http://localhost:PORT/token: a realm
//	                    on another port must be a DNS name for
//	                    go-containerregistry).
//
// Scripts start with [!exec:docker-registry] skip.
func distCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 1 || len(args) > 2 || (len(args) == 2 && args[1] != "-token") {
		ts.Fatalf("usage: dist NAME [-token]")
	}
	bin, err := exec.LookPath("docker-registry")
	if err != nil {
		ts.Fatalf("docker-registry is not installed: guard the script with [!exec:docker-registry] skip")
	}
	dir := ts.MkAbs(args[0])
	ts.Check(os.MkdirAll(dir, 0o755))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	ts.Check(err)
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	auth := ""
	if len(args) == 2 {
		srv := ts.Value(srvKey{}).(*refserver.Server)
		cert := filepath.Join(dir, "token.crt")
		ts.Check(os.WriteFile(cert, srv.Registry().CertificatePEM(), 0o644))
		refPort := strings.TrimPrefix(srv.URL(), "http://127.0.0.1:")
		auth = fmt.Sprintf(`auth:
  token:
    realm: http://localhost:%s/token
    service: forge-distribution
    issuer: %s
    rootcertbundle: %s
`, refPort, srv.Registry().Issuer(), cert)
	}
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
%s`, filepath.Join(dir, "data"), port, auth)
	cfgPath := filepath.Join(dir, "config.yml")
	ts.Check(os.WriteFile(cfgPath, []byte(config), 0o644))
	logf, err := os.Create(filepath.Join(dir, "log"))
	ts.Check(err)
	cmd := exec.Command(bin, "serve", cfgPath)
	cmd.Stdout, cmd.Stderr = logf, logf
	ts.Check(cmd.Start())
	ts.Defer(func() { cmd.Process.Kill(); cmd.Wait(); logf.Close() })
	url := fmt.Sprintf("http://127.0.0.1:%d", port)
	for deadline := time.Now().Add(20 * time.Second); ; {
		resp, err := http.Get(url + "/v2/")
		if err == nil {
			resp.Body.Close()
			break
		}
		if time.Now().After(deadline) {
			ts.Fatalf("docker-registry did not come up: %v\n%s", err, ts.ReadFile(filepath.Join(dir, "log")))
		}
		time.Sleep(20 * time.Millisecond)
	}
	name := strings.ToUpper(args[0])
	ts.Setenv(name+"_HOST", fmt.Sprintf("127.0.0.1:%d", port))
	ts.Setenv(name+"_URL", url)
	ts.Setenv(name+"_PORT", strconv.Itoa(port))
}
