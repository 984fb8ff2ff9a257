package agentctx_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/forgehq/forge/app/agentctx"
	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/refserver"
	"github.com/forgehq/forge/refserver/ci"
	"github.com/forgehq/forge/refserver/refservertest"
	"github.com/forgehq/forge/testkit/servicefixture"
)

// start runs a reference server with alice/demo and returns it with a
// client logged in as alice.
func start(t *testing.T) (*refserver.Server, *client.Client) {
	t.Helper()
	srv := refservertest.Start(t)
	tok := refservertest.User(t, srv, "alice", "")
	if _, err := srv.CreateRepo("alice", "demo", refserver.RepoOptions{AutoInit: true}); err != nil {
		t.Fatal(err)
	}
	c, err := client.New(srv.BaseURL(), tok)
	if err != nil {
		t.Fatal(err)
	}
	return srv, c
}

func TestFileLimits(t *testing.T) {
	srv, c := start(t)
	big := strings.Repeat("0123456789abcde\n", 1<<16+1) // 1 MiB and 16 bytes
	if _, err := srv.CommitFiles("alice/demo", "", map[string]string{"big.txt": big, "bin.dat": "\x00\x01binary", "ok.txt": "fine\n"}, "files"); err != nil {
		t.Fatal(err)
	}
	repo := client.RepoName{Owner: "alice", Name: "demo"}
	for ref, want := range map[string]string{
		"file:big.txt": "file:big.txt: big.txt is 1048592 bytes; forge attaches files of up to 1048576",
		"file:bin.dat": "file:bin.dat: bin.dat is not a text file",
	} {
		if _, err := agentctx.Build(context.Background(), c, repo, ref, agentctx.Options{}); err == nil || err.Error() != want {
			t.Errorf("%s: %v, want %q", ref, err, want)
		}
	}
	if a, err := agentctx.Build(context.Background(), c, repo, "file:ok.txt", agentctx.Options{}); err != nil || len(a.Sections[0].Lines) != 1 {
		t.Errorf("file:ok.txt: %v", err)
	}
}

// TestFileBinaryGuessIsGits: a file is text or not by client.Binary, from
// its first 8000 bytes as forge repo contents judges it: one with a stray
// Latin-1 byte past them is attached. build checked the whole file and
// refused it as "not a text file".
func TestFileBinaryGuessIsGits(t *testing.T) {
	srv, c := start(t)
	late := strings.Repeat("a line of text\n", 600) + "caf\xe9\n" // 9000 bytes of UTF-8, then a Latin-1 é
	if _, err := srv.CommitFiles("alice/demo", "", map[string]string{"late.txt": late}, "files"); err != nil {
		t.Fatal(err)
	}
	repo := client.RepoName{Owner: "alice", Name: "demo"}
	a, err := agentctx.Build(context.Background(), c, repo, "file:late.txt", agentctx.Options{})
	if err != nil || len(a.Sections[0].Lines) != 601 {
		t.Fatalf("file:late.txt: %v", err)
	}
}

func TestRunKeepsTheEndOfLongLogs(t *testing.T) {
	srv, c := start(t)
	var lines []string
	for i := 1; i <= 1200; i++ {
		lines = append(lines, fmt.Sprintf("line %d", i))
	}
	lines = append(lines, "huge "+strings.Repeat("x", 200_000), "error: the end")
	run, err := srv.CreateRun("alice/demo", refserver.RunSeed{Status: ci.Completed, Conclusion: ci.Failure, Tick: time.Hour,
		Jobs: []ci.JobPlan{{Name: "build", Steps: []ci.StepPlan{{Name: "Build", Lines: lines}}}}})
	if err != nil {
		t.Fatal(err)
	}
	repo := client.RepoName{Owner: "alice", Name: "demo"}
	a, err := agentctx.Build(context.Background(), c, repo, fmt.Sprintf("run:%d", run.ID), agentctx.Options{LogLines: 100})
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Sections) != 2 {
		t.Fatalf("sections: %d, want the metadata and one log", len(a.Sections))
	}
	log := a.Sections[1]
	if !log.KeepTail || len(log.Lines) != 100 || !strings.HasPrefix(log.Title, "job build (failure): the last 100 of 120") {
		t.Errorf("log section %q: %d lines, keep tail %v", log.Title, len(log.Lines), log.KeepTail)
	}
	last := log.Lines[len(log.Lines)-1]
	if !strings.HasSuffix(last, "##[error]Process completed with exit code 1.") || !strings.HasSuffix(log.Lines[len(log.Lines)-2], "error: the end") {
		t.Errorf("the log does not end where it should: %q", log.Lines[len(log.Lines)-3:])
	}
	huge := log.Lines[len(log.Lines)-3]
	if len(huge) > 2100 || !strings.HasSuffix(huge, "x…") {
		t.Errorf("a 200,000-byte line was kept as %d bytes", len(huge))
	}
	if want := fmt.Sprintf("line %d", 1200-96); !strings.HasSuffix(log.Lines[0], want) {
		t.Errorf("the tail starts at %q, want line %q", log.Lines[0], want)
	}
}

// A fail-fast matrix: one job failed and the others were cancelled
// because of it. The log attached is the failed job's; the cancelled ones
// are listed, not attached.
func TestRunAttachesTheLogOfTheJobThatBroke(t *testing.T) {
	s := servicefixture.New(t, servicefixture.Options{JobConclusions: []string{"cancelled", "failure", "cancelled"}})
	c, err := client.New(s.BaseURL, s.Token)
	if err != nil {
		t.Fatal(err)
	}
	a, err := agentctx.Build(context.Background(), c, client.RepoName{Owner: servicefixture.Login, Name: "app"}, "run:2", agentctx.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var logs []string
	for _, sec := range a.Sections[1:] {
		logs = append(logs, sec.Title)
	}
	if len(logs) != 1 || !strings.HasPrefix(logs[0], "job test (2) (failure)") {
		t.Errorf("log sections %q, want the failed job's only", logs)
	}
	meta := strings.Join(a.Sections[0].Lines, "\n")
	for _, want := range []string{"job test (1) (ID 20): cancelled", "job test (3) (ID 22): cancelled"} {
		if !strings.Contains(meta, want) {
			t.Errorf("the metadata lacks %q:\n%s", want, meta)
		}
	}
}
