package mcpserver

import (
	"context"
	"strings"
	"testing"

	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/refserver"
	"github.com/forgehq/forge/refserver/refservertest"
	"github.com/forgehq/forge/regclient"
)

// restOnly is a Backend over one REST client and one repository.
type restOnly struct {
	c    *client.Client
	repo client.RepoName
}

func (b restOnly) REST() (*client.Client, error)        { return b.c, nil }
func (b restOnly) Registry() (*regclient.Client, error) { return nil, nil }
func (b restOnly) GitCredentials() (string, string, error) {
	return "", "", nil
}
func (b restOnly) Repo(context.Context, string) (client.RepoName, error) {
	return b.repo, nil
}

// TestContentsPastTheInlineLimit: repo_contents pages the first MiB of a
// file the reference server refuses inline (403 past 1 MiB) and says how
// much it left out; a large binary file is named, not shown. On main
// both were the server's 403.
func TestContentsPastTheInlineLimit(t *testing.T) {
	srv := refservertest.Start(t)
	tok := refservertest.User(t, srv, "alice", "")
	if _, err := srv.CreateRepo("alice", "app", refserver.RepoOptions{AutoInit: true}); err != nil {
		t.Fatal(err)
	}
	line := "a line of text, page after page\n" // 32 bytes
	big := strings.Repeat(line, 3<<20/len(line))
	bin := strings.Repeat("\x00\x01\x02\x03", 1<<19) // 2 MiB
	if _, err := srv.CommitFiles("alice/app", "", map[string]string{"big.txt": big, "big.bin": bin}, "Add big files"); err != nil {
		t.Fatal(err)
	}
	c, err := client.New(srv.BaseURL(), tok)
	if err != nil {
		t.Fatal(err)
	}
	s := &Server{opts: Options{Backend: restOnly{c, client.RepoName{Owner: "alice", Name: "app"}}}}
	ctx := context.Background()

	out, err := contents(ctx, s, ContentsIn{Path: "big.txt", Page: 2})
	if err != nil {
		t.Fatal(err)
	}
	wantNote := "truncated: bytes 24576-49152 of 1048576 shown; ask with page 3 for more; the file is 3145728 bytes; the pages cover its first 1048576 bytes only"
	if out.Type != "file" || out.Size != 3<<20 || out.Text != big[TextPage:2*TextPage] || out.Note != wantNote {
		t.Fatalf("big.txt page 2: size %d, %d bytes of text, note %q", out.Size, len(out.Text), out.Note)
	}
	out, err = contents(ctx, s, ContentsIn{Path: "big.bin"})
	if err != nil {
		t.Fatal(err)
	}
	if out.Text != "" || out.Size != 2<<20 || out.Note != "big.bin is not a text file (2097152 bytes); its content is not shown" {
		t.Fatalf("big.bin: %+v", out)
	}
}
