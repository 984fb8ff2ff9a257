package main

import (
	"flag"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/forgehq/forge/refserver"
	"github.com/forgehq/forge/refserver/ci"
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
//	srv repo [-private] [-init] [-description D] OWNER/NAME
//	srv file [-branch B] [-message M] OWNER/NAME PATH CONTENT    commit one file
//	srv collaborator OWNER/NAME USER PERMISSION                  read, write or admin
//	srv issue [-author U] [-body B] [-closed] OWNER/NAME TITLE
//	srv issues [-closed] OWNER/NAME COUNT                        COUNT issues titled "Issue N"
//	srv comment [-author U] OWNER/NAME NUMBER BODY
//	srv pr [-author U] [-head B] [-base B] [-state open|closed|merged] [-draft] OWNER/NAME TITLE
//	srv release [-name N] [-draft] [-prerelease] OWNER/NAME TAG
//	srv demo                            add the --demo world (alice/webapp's run 2 failed)
//	srv run [-name N] [-branch B] [-event E] [-actor LOGIN] [-status S] [-conclusion C] [-tick D] [-stepped]
//	        [-var V] [-line TEXT]... [-filler N] OWNER/NAME
//	                                    seed a workflow run; -var V sets $V to its ID and $V_JOB
//	                                    to its first job's ID. -status "" lets it progress from now
//	                                    (50 ms a tick here), queued/in_progress hold it there,
//	                                    completed finishes it; -conclusion success|failure|cancelled;
//	                                    -stepped moves it one tick per read of the run instead
//	                                    (a watch sees every state however slow the machine);
//	                                    -line adds a line to the log of the last job's last step
//	                                    (the one that fails), -filler N adds N numbered lines before
//
// Flags come before the positional arguments.
const srvUsage = `usage: srv user|token|2fa|totp|demo|repo|file|collaborator|issue|issues|comment|pr|release|run ... (see cmd/forge/srv_test.go)`

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
	seed(ts, srv, args)
}

// seed runs a srv subcommand on srv.
func seed(ts *testscript.TestScript, srv *refserver.Server, args []string) {
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
	case "demo":
		need(0, 0)
		ts.Check(srv.SeedDemo())
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
		if !srvRepoCmd(ts, srv, sub, fs, need) {
			ts.Fatalf("srv: unknown subcommand %q\n%s", sub, srvUsage)
		}
	}
}

// srvRepoCmd runs the repository-scoped srv subcommands; false means sub
// is not one of them.
func srvRepoCmd(ts *testscript.TestScript, srv *refserver.Server, sub string, fs *flag.FlagSet, need func(min, max int)) bool {
	num := func(s string) int64 {
		n, err := strconv.ParseInt(s, 10, 64)
		ts.Check(err)
		return n
	}
	switch sub {
	case "repo":
		private := fs.Bool("private", false, "")
		init := fs.Bool("init", false, "")
		desc := fs.String("description", "", "")
		need(1, 1)
		owner, name, _ := strings.Cut(fs.Arg(0), "/")
		_, err := srv.CreateRepo(owner, name, refserver.RepoOptions{Description: *desc, Private: *private, AutoInit: *init})
		ts.Check(err)
	case "file":
		branch := fs.String("branch", "", "")
		msg := fs.String("message", "", "")
		need(3, 3)
		if *msg == "" {
			*msg = "Update " + fs.Arg(1)
		}
		_, err := srv.CommitFiles(fs.Arg(0), *branch, map[string]string{fs.Arg(1): fs.Arg(2)}, *msg)
		ts.Check(err)
	case "collaborator":
		need(3, 3)
		ts.Check(srv.AddCollaborator(fs.Arg(0), fs.Arg(1), fs.Arg(2)))
	case "issue":
		author := fs.String("author", "", "")
		body := fs.String("body", "", "")
		closed := fs.Bool("closed", false, "")
		need(2, 2)
		is, err := srv.CreateIssue(fs.Arg(0), *author, fs.Arg(1), *body)
		ts.Check(err)
		if *closed {
			ts.Check(srv.SetIssueState(fs.Arg(0), is.Number, "closed"))
		}
	case "issues":
		closed := fs.Bool("closed", false, "")
		need(2, 2)
		for i, n := int64(1), num(fs.Arg(1)); i <= n; i++ {
			is, err := srv.CreateIssue(fs.Arg(0), "", fmt.Sprintf("Issue %d", i), "")
			ts.Check(err)
			if *closed {
				ts.Check(srv.SetIssueState(fs.Arg(0), is.Number, "closed"))
			}
		}
	case "comment":
		author := fs.String("author", "", "")
		need(3, 3)
		_, err := srv.AddComment(fs.Arg(0), num(fs.Arg(1)), *author, fs.Arg(2))
		ts.Check(err)
	case "pr":
		var p refserver.PullSeed
		fs.StringVar(&p.Author, "author", "", "")
		fs.StringVar(&p.Head, "head", "", "")
		fs.StringVar(&p.Base, "base", "", "")
		fs.StringVar(&p.Body, "body", "", "")
		fs.StringVar(&p.State, "state", "", "")
		fs.BoolVar(&p.Draft, "draft", false, "")
		need(2, 2)
		p.Title = fs.Arg(1)
		_, err := srv.CreatePull(fs.Arg(0), p)
		ts.Check(err)
	case "release":
		var r refserver.ReleaseSeed
		fs.StringVar(&r.Name, "name", "", "")
		fs.BoolVar(&r.Draft, "draft", false, "")
		fs.BoolVar(&r.Prerelease, "prerelease", false, "")
		need(2, 2)
		r.Tag = fs.Arg(1)
		_, err := srv.CreateRelease(fs.Arg(0), r)
		ts.Check(err)
	case "run":
		var r refserver.RunSeed
		fs.StringVar(&r.Name, "name", "", "")
		fs.StringVar(&r.Branch, "branch", "", "")
		fs.StringVar(&r.Event, "event", "", "")
		fs.StringVar(&r.Actor, "actor", "", "")
		fs.StringVar(&r.Status, "status", "", "")
		fs.StringVar(&r.Conclusion, "conclusion", "", "")
		fs.DurationVar(&r.Tick, "tick", 0, "")
		fs.BoolVar(&r.Stepped, "stepped", false, "")
		v := fs.String("var", "", "")
		var extra []string
		fs.Func("line", "", func(s string) error { extra = append(extra, s); return nil })
		filler := fs.Int("filler", 0, "")
		need(1, 1)
		if len(extra) > 0 || *filler > 0 {
			plan := ci.DefaultPlan()
			last := &plan.Jobs[len(plan.Jobs)-1].Steps[len(plan.Jobs[len(plan.Jobs)-1].Steps)-1]
			for i := 1; i <= *filler; i++ {
				last.Lines = append(last.Lines, fmt.Sprintf("filler line %d of %d", i, *filler))
			}
			last.Lines = append(last.Lines, extra...)
			r.Jobs = plan.Jobs
		}
		run, err := srv.CreateRun(fs.Arg(0), r)
		ts.Check(err)
		if *v != "" {
			ts.Setenv(*v, strconv.FormatInt(run.ID, 10))
			ts.Setenv(*v+"_JOB", strconv.FormatInt(run.Plan.Jobs[0].ID, 10))
		}
	default:
		return false
	}
	return true
}
