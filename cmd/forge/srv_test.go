package main

import (
	"flag"
	"strings"
	"time"

	"github.com/forgehq/forge/refserver"
	"github.com/pquerna/otp"
	"github.com/pquerna/otp/totp"
	"github.com/rogpeppe/go-internal/testscript"
)

// srvKey finds the script's *refserver.Server in env.Values.
type srvKey struct{}

// srvUsage documents the srv builtin, which seeds the script's reference
// server through refserver's Go API:
//
//	srv user NAME PASSWORD [ROLE]       create an account (role user, customer_admin, site_admin)
//	srv token NAME VAR                  log NAME in; set $VAR to its token
//	srv 2fa NAME VAR                    enable 2FA for NAME; set $VAR to the TOTP secret
//	srv totp SECRET VAR [OFFSET]        set $VAR to the code for now+OFFSET (e.g. 30s; a code
//	                                    works once, so a second login in the same 30 s needs +30s)
const srvUsage = `usage: srv user NAME PASSWORD [ROLE] | token NAME VAR | 2fa NAME VAR | totp SECRET VAR [OFFSET]`

func srvCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("srv does not support !")
	}
	if len(args) == 0 {
		ts.Fatalf("%s", srvUsage)
	}
	srv, _ := ts.Value(srvKey{}).(*refserver.Server)
	if srv == nil {
		ts.Fatalf("srv: no reference server in this script")
	}
	sub, args := args[0], args[1:]
	fs := flag.NewFlagSet("srv "+sub, flag.ContinueOnError)
	fs.SetOutput(ts.Stderr())
	need := func(min, max int) {
		if err := fs.Parse(args); err != nil {
			ts.Fatalf("srv %s: %v", sub, err)
		}
		if n := fs.NArg(); n < min || n > max {
			ts.Fatalf("%s", srvUsage)
		}
	}
	switch sub {
	case "user":
		need(2, 3)
		_, err := srv.CreateUser(fs.Arg(0), fs.Arg(1), fs.Arg(2))
		ts.Check(err)
	case "token":
		need(2, 2)
		tok, err := srv.Token(fs.Arg(0))
		ts.Check(err)
		ts.Setenv(fs.Arg(1), tok)
	case "2fa":
		need(2, 2)
		secret, err := srv.EnableTwoFA(fs.Arg(0))
		ts.Check(err)
		ts.Setenv(fs.Arg(1), secret)
	case "totp":
		need(2, 3)
		var off time.Duration
		if fs.Arg(2) != "" {
			d, err := time.ParseDuration(fs.Arg(2))
			ts.Check(err)
			off = d
		}
		code, err := totp.GenerateCodeCustom(strings.TrimSpace(fs.Arg(0)), time.Now().Add(off),
			totp.ValidateOpts{Period: 30, Digits: otp.DigitsSix, Algorithm: otp.AlgorithmSHA1})
		ts.Check(err)
		ts.Setenv(fs.Arg(1), code)
	default:
		ts.Fatalf("srv: unknown subcommand %q\n%s", sub, srvUsage)
	}
}
