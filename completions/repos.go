package completions

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"time"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/internal/atomicfile"
	"github.com/spf13/cobra"
)

// CacheTTL is how long a cached list of repositories is used without
// asking the service again.
const CacheTTL = time.Minute

// maxRepos bounds what one completion fetches and offers.
const maxRepos = 500

// repoCache is the file holding one account's repositories.
type repoCache struct {
	Fetched time.Time `json:"fetched"`
	Repos   []string  `json:"repos"` // "OWNER/NAME\tdescription"
}

// Repos completes OWNER/REPO with the repositories the user can see,
// each described by its description.
func Repos(f *cmdutil.Factory) Func {
	return func(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		return repoNames(f, cmd), noFiles
	}
}

// RepoArg completes an OWNER/REPO positional argument: only the first.
func RepoArg(f *cmdutil.Factory) Func {
	return func(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		if len(args) > 0 {
			return nil, noFiles
		}
		return repoNames(f, cmd), noFiles
	}
}

func repoNames(f *cmdutil.Factory, cmd *cobra.Command) []string {
	c, baseURL, user := rest(f)
	if c == nil {
		return nil
	}
	path := cachePath(f, baseURL, user)
	cached, cerr := readCache(path)
	if cerr == nil && time.Since(cached.Fetched) < CacheTTL && time.Since(cached.Fetched) >= 0 {
		return cached.Repos
	}
	ctx, cancel := withTimeout(cmd)
	defer cancel()
	var names []string
	for r, err := range c.Repos.List(ctx, client.ListOptions{PerPage: 100}) {
		if err != nil {
			if cerr == nil {
				return cached.Repos // stale beats nothing
			}
			return nil
		}
		name := r.FullName
		if d := oneLine(r.Description); d != "" {
			name = cobra.CompletionWithDesc(name, d)
		}
		names = append(names, name)
		if len(names) == maxRepos {
			break
		}
	}
	writeCache(path, repoCache{Fetched: time.Now(), Repos: names})
	return names
}

// cachePath is $XDG_CACHE_HOME/forge/completion/repos-HASH.json (else
// ~/.cache/...), one file per service and account; "" without a home.
func cachePath(f *cmdutil.Factory, baseURL, user string) string {
	dir := f.CacheDir()
	if dir == "" {
		return ""
	}
	sum := sha256.Sum256([]byte(baseURL + "\n" + user))
	return filepath.Join(dir, "completion", "repos-"+hex.EncodeToString(sum[:8])+".json")
}

func readCache(path string) (repoCache, error) {
	var c repoCache
	if path == "" {
		return c, os.ErrNotExist
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return c, err
	}
	return c, json.Unmarshal(b, &c)
}

// writeCache replaces the cache file atomically (a concurrent TAB reads
// the old or the new one, never half of one); failures only cost speed.
func writeCache(path string, c repoCache) {
	if path == "" {
		return
	}
	b, err := json.Marshal(c)
	if err != nil || os.MkdirAll(filepath.Dir(path), 0o700) != nil {
		return
	}
	atomicfile.Write(path, b) // a cache: a failed write costs a request next time
}
