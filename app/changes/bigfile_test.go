package changes

import (
	"context"
	"strings"
	"testing"

	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/refserver"
	"github.com/forgehq/forge/refserver/refservertest"
)

// TestReadSkipsFilesPastTheInlineLimit: a side the reference server
// refuses inline (403 past 1 MiB) is "not diffed: larger than 1.0 MiB",
// and the other files of the change are still diffed. On main the 403
// failed the whole diff.
func TestReadSkipsFilesPastTheInlineLimit(t *testing.T) {
	srv := refservertest.Start(t)
	tok := refservertest.User(t, srv, "alice", "")
	if _, err := srv.CreateRepo("alice", "app", refserver.RepoOptions{AutoInit: true}); err != nil {
		t.Fatal(err)
	}
	from, err := srv.CommitFiles("alice/app", "", map[string]string{"small.txt": "one\n"}, "small")
	if err != nil {
		t.Fatal(err)
	}
	big := strings.Repeat("a line of text\n", 3<<20/15)
	to, err := srv.CommitFiles("alice/app", "", map[string]string{"small.txt": "two\n", "big.txt": big}, "big")
	if err != nil {
		t.Fatal(err)
	}
	c, err := client.New(srv.BaseURL(), tok)
	if err != nil {
		t.Fatal(err)
	}
	files, err := Read(context.Background(), c, client.RepoName{Owner: "alice", Name: "app"}, from, to,
		[]client.CommitFile{{Filename: "big.txt", Status: "added"}, {Filename: "small.txt", Status: "modified"}})
	if err != nil {
		t.Fatal(err)
	}
	if files[0].Note != "not diffed: larger than 1.0 MiB" || files[0].Unified != "" {
		t.Errorf("big.txt: %+v", files[0])
	}
	if files[1].Added != 1 || files[1].Removed != 1 {
		t.Errorf("small.txt: %+v", files[1])
	}
}

// TestReadGuessesBinaryAsGit: whether a side is binary is client.Binary's
// guess, from its first 8000 bytes, as forge repo contents makes it: a
// text file with a stray Latin-1 byte past them is diffed, one with a NUL
// at the start is not. changes checked the whole file and skipped the
// first as a "binary file".
func TestReadGuessesBinaryAsGit(t *testing.T) {
	srv := refservertest.Start(t)
	tok := refservertest.User(t, srv, "alice", "")
	if _, err := srv.CreateRepo("alice", "app", refserver.RepoOptions{AutoInit: true}); err != nil {
		t.Fatal(err)
	}
	late := strings.Repeat("a line of text\n", 600) + "caf\xe9\n" // 9000 bytes of UTF-8, then a Latin-1 é
	to, err := srv.CommitFiles("alice/app", "", map[string]string{"late.txt": late, "bin.dat": "\x00\x01binary"}, "files")
	if err != nil {
		t.Fatal(err)
	}
	c, err := client.New(srv.BaseURL(), tok)
	if err != nil {
		t.Fatal(err)
	}
	files, err := Read(context.Background(), c, client.RepoName{Owner: "alice", Name: "app"}, to+"^", to,
		[]client.CommitFile{{Filename: "late.txt", Status: "added"}, {Filename: "bin.dat", Status: "added"}})
	if err != nil {
		t.Fatal(err)
	}
	if files[0].Note != "" || files[0].Added != 601 {
		t.Errorf("late.txt: %+v", files[0].Note)
	}
	if files[1].Note != "binary file" {
		t.Errorf("bin.dat: %+v", files[1].Note)
	}
}
