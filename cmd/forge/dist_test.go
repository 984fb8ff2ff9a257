package main

import (
	"net/url"
	"strconv"
	"strings"

	"github.com/forgehq/forge/refserver"
	"github.com/forgehq/forge/testkit/disttest"
	"github.com/rogpeppe/go-internal/testscript"
)

func init() { scriptCmds["dist"] = distCmd }

// distCmd runs Debian's docker-registry (the CNCF distribution registry),
// a registry forge did not write, for the script (testkit/disttest):
//
//	dist NAME [-token]  start one on a free 127.0.0.1 port, storing under
//	                    $WORK/NAME, with deletes enabled; exports
//	                    NAME_HOST (127.0.0.1:PORT), NAME_URL
//	                    (http://NAME_HOST) and NAME_PORT. Without -token
//	                    it takes any push from anyone; with -token it
//	                    accepts only tokens of the script's reference
//	                    server (realm http://localhost:PORT/token: a realm
//	                    on another port must be a DNS name for
//	                    go-containerregistry), set as NAME_REALM_HOST).
//
// Scripts start with [!exec:docker-registry] skip.
func distCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 1 || len(args) > 2 || (len(args) == 2 && args[1] != "-token") {
		ts.Fatalf("usage: dist NAME [-token]")
	}
	if !disttest.Installed() {
		ts.Fatalf("docker-registry is not installed: guard the script with [!exec:docker-registry] skip")
	}
	var token *disttest.Token
	if len(args) == 2 {
		srv := ts.Value(srvKey{}).(*refserver.Server)
		token = &disttest.Token{
			Realm:       "http://localhost:" + strings.TrimPrefix(srv.URL(), "http://127.0.0.1:") + "/token",
			Issuer:      srv.Registry().Issuer(),
			Certificate: srv.Registry().CertificatePEM(),
		}
	}
	r, err := disttest.Start(ts.MkAbs(args[0]), token)
	ts.Check(err)
	ts.Defer(r.Close)
	name := strings.ToUpper(args[0])
	ts.Setenv(name+"_HOST", r.Host)
	ts.Setenv(name+"_URL", r.URL)
	ts.Setenv(name+"_PORT", strconv.Itoa(r.Port))
	if token != nil {
		u, _ := url.Parse(token.Realm)
		ts.Setenv(name+"_REALM_HOST", u.Host)
	}
}
