package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

func init() { scriptCmds["realmreg"] = realmRegCmd }

// realmRegCmd starts a hostile registry for the script: one on a free
// 127.0.0.1 port whose challenge sends logins to a token service named
// localhost — on its own port (the same machine and port, by a DNS name
// rather than the address the profile stores), or with -other on a port
// of its own — to collect a password forge should never send there:
//
//	realmreg NAME [-other]  exports NAME_URL (http://127.0.0.1:PORT),
//	                        NAME_HOST (127.0.0.1:PORT) and NAME_REALM (the
//	                        realm's origin); logs each request it gets to
//	                        $WORK/NAME.log as METHOD PATH AUTH, AUTH the
//	                        Authorization scheme or "none", never the
//	                        secret. Given its token, it lists alice/hello
//	                        with the tag private-1.
func realmRegCmd(ts *testscript.TestScript, neg bool, args []string) {
	fs := flag.NewFlagSet("realmreg", flag.ContinueOnError)
	other := fs.Bool("other", false, "")
	if neg || len(args) < 1 {
		ts.Fatalf("usage: realmreg NAME [-other]")
	}
	ts.Check(fs.Parse(args[1:]))
	name := args[0]
	reg, err := net.Listen("tcp", "127.0.0.1:0")
	ts.Check(err)
	tok := reg
	if *other {
		tok, err = net.Listen("tcp", "127.0.0.1:0")
		ts.Check(err)
	}
	realm := "http://localhost:" + portOf(tok.Addr().String())
	h := &realmReg{realm: realm, log: ts.MkAbs(name + ".log")}
	for _, ln := range uniqueListeners(reg, tok) {
		hs := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
		go hs.Serve(ln)
		ts.Defer(func() { hs.Close() })
	}
	prefix := strings.ToUpper(name)
	ts.Setenv(prefix+"_URL", "http://"+reg.Addr().String())
	ts.Setenv(prefix+"_HOST", reg.Addr().String())
	ts.Setenv(prefix+"_REALM", realm)
}

func portOf(addr string) string {
	_, port, _ := net.SplitHostPort(addr)
	return port
}

func uniqueListeners(a, b net.Listener) []net.Listener {
	if a == b {
		return []net.Listener{a}
	}
	return []net.Listener{a, b}
}

// realmReg is the hostile registry and its token service.
type realmReg struct {
	realm string
	log   string
	mu    sync.Mutex
}

const realmRegToken = "realmreg-token"

func (h *realmReg) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	auth := "none"
	if a := r.Header.Get("Authorization"); a != "" {
		auth, _, _ = strings.Cut(a, " ")
	}
	h.mu.Lock()
	if f, err := os.OpenFile(h.log, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600); err == nil {
		fmt.Fprintf(f, "%s %s %s\n", r.Method, r.URL.Path, auth)
		f.Close()
	}
	h.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	if r.URL.Path == "/token" {
		json.NewEncoder(w).Encode(map[string]string{"token": realmRegToken, "access_token": realmRegToken})
		return
	}
	if !strings.HasPrefix(r.URL.Path, "/v2/") {
		// The distribution API only: no image records of the service's.
		w.WriteHeader(http.StatusNotFound)
		fmt.Fprintln(w, `{"errors":[{"code":"NOT_FOUND","message":"not here"}]}`)
		return
	}
	if r.Header.Get("Authorization") != "Bearer "+realmRegToken {
		w.Header().Set("WWW-Authenticate", `Bearer realm="`+h.realm+`/token",service="realmreg"`)
		w.WriteHeader(http.StatusUnauthorized)
		fmt.Fprintln(w, `{"errors":[{"code":"UNAUTHORIZED","message":"authentication required"}]}`)
		return
	}
	switch r.URL.Path {
	case "/v2/":
		fmt.Fprintln(w, `{}`)
	case "/v2/_catalog":
		fmt.Fprintln(w, `{"repositories":["alice/hello"]}`)
	case "/v2/alice/hello/tags/list":
		fmt.Fprintln(w, `{"name":"alice/hello","tags":["private-1"]}`)
	default:
		w.WriteHeader(http.StatusNotFound)
		fmt.Fprintln(w, `{"errors":[{"code":"NAME_UNKNOWN","message":"not here"}]}`)
	}
}
