package repos

import (
	"strings"
	"testing"

	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/tui/tuitest"
)

// TestFileViewPastTheInlineLimit: a file the reference server refuses
// inline (403 past 1 MiB) shows its first MiB and says what it left out;
// a large binary file is described. On main the view showed the 403.
func TestFileViewPastTheInlineLimit(t *testing.T) {
	t.Parallel()
	srv := tuitest.Server(t)
	line := "a line of text\n"
	big := "first line\n" + strings.Repeat(line, 3<<20/len(line)) // 3.0 MiB
	bin := strings.Repeat("\x00\xff", 1<<20)                      // 2.0 MiB
	if _, err := srv.CommitFiles("alice/webapp", "", map[string]string{"big.txt": big, "big.bin": bin}, "Add big files"); err != nil {
		t.Fatal(err)
	}
	ctx := tuitest.Context(t, srv, "alice")
	repo := client.RepoName{Owner: "alice", Name: "webapp"}

	d := tuitest.Drive(t, newFileView(ctx, repo, &client.Content{Name: "big.txt", Path: "big.txt"}), 100, 20)
	d.UntilView("big.txt · 3.0 MiB", "1 first line", "2 a line of text")
	d.Key("G")
	v := d.UntilView("… the first 1.0 MiB of 3.0 MiB is shown; save the whole file with", "forge repo contents big.txt -R alice/webapp > FILE")
	if strings.Contains(v, "HTTP 403") {
		t.Fatalf("the view shows the refusal:\n%s", v)
	}

	d = tuitest.Drive(t, newFileView(ctx, repo, &client.Content{Name: "big.bin", Path: "big.bin"}), 100, 20)
	d.UntilView("A binary file of 2.0 MiB: save it with", "forge repo contents big.bin -R alice/webapp > FILE")
}

// TestFileViewCleansTheRepositoryName: the line saying how to save a file
// names the repository as the service named it (full_name), and reaches
// the terminal cleaned like the service's other strings.
func TestFileViewCleansTheRepositoryName(t *testing.T) {
	t.Parallel()
	srv := tuitest.Server(t)
	if _, err := srv.CommitFiles("alice/webapp", "", map[string]string{"logo.bin": "\x00\x01\x02"}, "Add a binary file"); err != nil {
		t.Fatal(err)
	}
	env := tuitest.Env(t, srv, "alice")
	env["FORGE_BASE_URL"] = tuitest.Hostile(t, srv) + "/api/v2"
	ctx := tuitest.Context(t, srv, "alice")
	ctx.Factory = tuitest.Factory(env)
	repo := client.RepoName{Owner: "alice", Name: "webapp" + tuitest.Marker}

	d := tuitest.Drive(t, newFileView(ctx, repo, &client.Content{Name: "logo.bin", Path: "logo.bin"}), 200, 20)
	d.UntilView("A binary file of", "forge repo contents logo.bin -R alice/webapp")
	if v := d.C.View(); strings.ContainsAny(v, "\x07\u009b\u202e\u2066") || strings.Contains(v, "\x1b]") || !strings.Contains(v, "alice/webapp^[]0;pwned") {
		t.Errorf("the view draws the service's controls raw:\n%q", v)
	}
}

// TestFileViewRendersMarkdownByName: the file view renders the files
// markdown.IsFile names, as forge repo view renders a README: a .mdown
// file is rendered (no line numbers, no **), a file without an extension
// is text. The view knew only .md and .markdown.
func TestFileViewRendersMarkdownByName(t *testing.T) {
	t.Parallel()
	srv := tuitest.Server(t)
	doc := "Notes\n\nSome **bold** words.\n"
	if _, err := srv.CommitFiles("alice/webapp", "", map[string]string{"NOTES.mdown": doc, "NOTES": doc}, "Add notes"); err != nil {
		t.Fatal(err)
	}
	ctx := tuitest.Context(t, srv, "alice")
	repo := client.RepoName{Owner: "alice", Name: "webapp"}

	d := tuitest.Drive(t, newFileView(ctx, repo, &client.Content{Name: "NOTES.mdown", Path: "NOTES.mdown"}), 100, 20)
	if v := d.UntilView("NOTES.mdown", "Some bold words."); strings.Contains(v, "**") || strings.Contains(v, "1 Notes") {
		t.Errorf(".mdown is not rendered:\n%s", v)
	}
	d = tuitest.Drive(t, newFileView(ctx, repo, &client.Content{Name: "NOTES", Path: "NOTES"}), 100, 20)
	d.UntilView("1 Notes", "3 Some **bold** words.")
}

// TestFileViewSearch: / finds text in a file as in a log; esc clears it.
func TestFileViewSearch(t *testing.T) {
	t.Parallel()
	srv := tuitest.Server(t)
	if _, err := srv.CommitFiles("alice/webapp", "", map[string]string{"notes.txt": "alpha\nbeta\nalpha again\n"}, "Add notes"); err != nil {
		t.Fatal(err)
	}
	ctx := tuitest.Context(t, srv, "alice")
	v := newFileView(ctx, client.RepoName{Owner: "alice", Name: "webapp"}, &client.Content{Name: "notes.txt", Path: "notes.txt"})
	d := tuitest.Drive(t, v, 80, 12)
	d.UntilView("notes.txt", "alpha again")
	d.Key("/")
	if !v.Capturing() {
		t.Fatal("/ did not start a search")
	}
	d.Type("alpha")
	d.Key("enter")
	d.UntilView("/alpha", "match 1 of 2")
	d.Key("n")
	d.UntilView("match 2 of 2")
	d.Key("esc")
	if s := d.View(); strings.Contains(s, "/alpha") || v.CanGoBack() {
		t.Errorf("esc did not clear the search:\n%s", s)
	}
}
