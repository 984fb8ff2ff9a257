// Package disttest runs Debian's docker-registry (the CNCF distribution
// registry), a registry forge did not write, for tests: open to anyone,
// or taking the tokens of a reference server's token service.
package disttest

import (
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"time"
)

// Token configures token auth: docker-registry accepts only tokens signed
// with the certificate, of the issuer, for the service "forge-distribution".
type Token struct {
	Realm       string // e.g. http://localhost:PORT/token (go-containerregistry wants a DNS name for a realm on another port)
	Issuer      string
	Certificate []byte // PEM
}

// Registry is a running docker-registry.
type Registry struct {
	Host string // 127.0.0.1:PORT
	URL  string // http://Host
	Port int
	Log  string // its log file
	cmd  *exec.Cmd
}

// Installed reports whether docker-registry is on the PATH.
func Installed() bool {
	_, err := exec.LookPath("docker-registry")
	return err == nil
}

// Start runs docker-registry on a free 127.0.0.1 port, storing under dir
// with deletes enabled; token nil means no auth. Stop it with Close.
func Start(dir string, token *Token) (*Registry, error) {
	bin, err := exec.LookPath("docker-registry")
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	auth := ""
	if token != nil {
		cert := filepath.Join(dir, "token.crt")
		if err := os.WriteFile(cert, token.Certificate, 0o644); err != nil {
			return nil, err
		}
		auth = fmt.Sprintf("auth:\n  token:\n    realm: %s\n    service: forge-distribution\n    issuer: %s\n    rootcertbundle: %s\n",
			token.Realm, token.Issuer, cert)
	}
	config := fmt.Sprintf("version: 0.1\nlog:\n  level: error\nstorage:\n  filesystem:\n    rootdirectory: %s\n  delete:\n    enabled: true\nhttp:\n  addr: 127.0.0.1:%d\n%s",
		filepath.Join(dir, "data"), port, auth)
	cfgPath := filepath.Join(dir, "config.yml")
	if err := os.WriteFile(cfgPath, []byte(config), 0o644); err != nil {
		return nil, err
	}
	r := &Registry{Host: "127.0.0.1:" + strconv.Itoa(port), Port: port, Log: filepath.Join(dir, "log")}
	r.URL = "http://" + r.Host
	logf, err := os.Create(r.Log)
	if err != nil {
		return nil, err
	}
	defer logf.Close()
	r.cmd = exec.Command(bin, "serve", cfgPath)
	r.cmd.Stdout, r.cmd.Stderr = logf, logf
	if err := r.cmd.Start(); err != nil {
		return nil, err
	}
	for deadline := time.Now().Add(20 * time.Second); ; {
		resp, err := http.Get(r.URL + "/v2/")
		if err == nil {
			resp.Body.Close()
			return r, nil
		}
		if time.Now().After(deadline) {
			r.Close()
			log, _ := os.ReadFile(r.Log)
			return nil, fmt.Errorf("docker-registry did not come up: %v\n%s", err, log)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Close stops the registry.
func (r *Registry) Close() {
	r.cmd.Process.Kill()
	r.cmd.Wait()
}
