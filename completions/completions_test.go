package completions_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/completions"
	"github.com/forgehq/forge/internal/iostreams"
	"github.com/forgehq/forge/refserver"
	"github.com/forgehq/forge/refserver/refservertest"
	"github.com/spf13/cobra"
)

// newFactory returns a Factory over env and its stderr.
func newFactory(t *testing.T, env map[string]string) (*cmdutil.Factory, func() string) {
	ios, _, _, errOut := iostreams.Test()
	env["FORGE_CONFIG_DIR"] = t.TempDir()
	return cmdutil.New(ios, func(k string) string { return env[k] }), errOut.String
}

// repoCmd is a command with -R, as the completion functions receive.
func repoCmd(repo string) *cobra.Command {
	c := &cobra.Command{Use: "x"}
	c.Flags().StringP("repo", "R", repo, "")
	c.SetContext(context.Background())
	return c
}

func values(cs []cobra.Completion) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i], _, _ = strings.Cut(c, "\t")
	}
	return out
}

// TestReposCache: the first TAB asks the service and caches the answer
// (mode 0600); within CacheTTL the cache answers; once stale the service
// is asked again; when it is down, the stale cache still answers.
func TestReposCache(t *testing.T) {
	t.Parallel()
	srv := refservertest.Start(t)
	token := refservertest.User(t, srv, "alice", "")
	srv.CreateRepo("alice", "one", refserver.RepoOptions{})
	cache := t.TempDir()
	f, stderr := newFactory(t, map[string]string{"FORGE_BASE_URL": srv.BaseURL(), "FORGE_TOKEN": token, "XDG_CACHE_HOME": cache})
	complete := func() []string {
		got, dir := completions.Repos(f)(repoCmd(""), nil, "")
		if dir != cobra.ShellCompDirectiveNoFileComp {
			t.Errorf("directive %v", dir)
		}
		return values(got)
	}
	if got := complete(); !slices.Equal(got, []string{"alice/one"}) {
		t.Fatalf("first: %v", got)
	}
	files, _ := filepath.Glob(filepath.Join(cache, "forge", "completion", "repos-*.json"))
	if len(files) != 1 {
		t.Fatalf("cache files: %v", files)
	}
	if st, err := os.Stat(files[0]); err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("cache file: %v %v", st.Mode(), err)
	}

	srv.CreateRepo("alice", "two", refserver.RepoOptions{})
	if got := complete(); !slices.Equal(got, []string{"alice/one"}) {
		t.Errorf("within the TTL the cache should answer: %v", got)
	}
	age := func() {
		var c map[string]any
		b, _ := os.ReadFile(files[0])
		json.Unmarshal(b, &c)
		c["fetched"] = time.Now().Add(-2 * completions.CacheTTL)
		b, _ = json.Marshal(c)
		os.WriteFile(files[0], b, 0o600)
	}
	age()
	if got := complete(); !slices.Contains(got, "alice/two") || !slices.Contains(got, "alice/one") {
		t.Errorf("a stale cache should be refreshed: %v", got)
	}
	srv.Close()
	age()
	if got := complete(); len(got) != 2 {
		t.Errorf("with the server down, the stale cache should answer: %v", got)
	}
	if s := stderr(); s != "" {
		t.Errorf("completion wrote to stderr: %q", s)
	}
}

// TestHangingServer: a server that never answers costs a TAB at most
// completions.Timeout, then offers nothing and says nothing.
func TestHangingServer(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	hang := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer hang.Close()
	defer close(release)
	f, stderr := newFactory(t, map[string]string{"FORGE_BASE_URL": hang.URL + "/api/v2", "FORGE_TOKEN": "tok", "XDG_CACHE_HOME": t.TempDir()})
	done := make(chan []cobra.Completion, 2)
	go func() {
		got, _ := completions.Issues(f, "open")(repoCmd("alice/app"), nil, "")
		done <- got
	}()
	go func() {
		got, _ := completions.Repos(f)(repoCmd(""), nil, "")
		done <- got
	}()
	for i := 0; i < 2; i++ {
		select {
		case got := <-done:
			if len(got) != 0 {
				t.Errorf("offered %v", got)
			}
		case <-time.After(10 * completions.Timeout):
			t.Fatal("completion still waiting on a server that does not answer")
		}
	}
	if s := stderr(); s != "" {
		t.Errorf("completion wrote to stderr: %q", s)
	}
}

func TestJSONFields(t *testing.T) {
	t.Parallel()
	c := &cobra.Command{Use: "x", Annotations: map[string]string{"forge/json-fields": "number,title,state"}}
	for _, tc := range []struct {
		typed string
		want  []string
	}{
		{"", []string{"number", "title", "state"}},
		{"t", []string{"title"}},
		{"number,", []string{"number,title", "number,state"}},
		{"number,title,s", []string{"number,title,state"}},
		{"nope", nil},
	} {
		got, dir := completions.JSONFields(c, nil, tc.typed)
		if !slices.Equal(got, tc.want) || dir&cobra.ShellCompDirectiveNoSpace == 0 {
			t.Errorf("%q: %v %v, want %v", tc.typed, got, dir, tc.want)
		}
	}
}

func TestArgs(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want []string }{
		{[]string{"__complete", "issue", "list", "--json", "nu"}, []string{"__complete", "issue", "list", "--json=nu"}},
		{[]string{"__complete", "issue", "list", "--json", ""}, []string{"__complete", "issue", "list", "--json="}},
		{[]string{"issue", "list", "--json", "number"}, []string{"issue", "list", "--json", "number"}},
		{[]string{"__complete", "issue", "close", ""}, []string{"__complete", "issue", "close", ""}},
	} {
		if got := completions.Args(tc.in); !slices.Equal(got, tc.want) {
			t.Errorf("%q: %q, want %q", tc.in, got, tc.want)
		}
	}
}
