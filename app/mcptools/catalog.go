// Package mcptools is the catalog of `forge mcp serve`'s tools — names,
// toolsets, descriptions, which ones write — and the options of a serve.
// It links nothing of the MCP SDK: `forge mcp tools`, `forge mcp config`
// and the flags of `forge mcp serve` live in forge itself, while the
// server (mcpserver, on the SDK) is linked only into forge-mcp,
// so the SDK's package initialisation is not paid by every forge command
// (bench/README.md, "Start-up with the MCP SDK").
package mcptools

// Tool is one tool of the catalog.
type Tool struct {
	Name, Toolset, Description string
	// Title is the tool's name for people (a client's tool list).
	Title string
	// Write marks a tool that changes something on the service: offered
	// only with --allow-write, and its description starts "WRITE: ".
	Write bool
	// Destructive marks a write tool that takes something away (a tag
	// deleted, an issue closed); the others only add (an issue, a
	// comment). Idempotent marks one that, called again with the same
	// arguments, changes nothing more.
	Destructive, Idempotent bool
}

// Toolsets, in the order the help lists them.
var Toolsets = []string{"repos", "issues", "pulls", "releases", "actions", "registry", "account"}

// All is every tool, by toolset.
var All = []Tool{
	{Name: "repos_list", Title: "List repositories", Toolset: "repos",
		Description: "List the repositories the user can see."},
	{Name: "repo_view", Title: "Show a repository", Toolset: "repos",
		Description: "Show a repository: description, default branch, visibility, whether the user may write."},
	{Name: "repo_contents", Title: "Read a file or directory", Toolset: "repos",
		Description: "Read a file (its text, in pages of 24 KiB, up to its first 1 MiB) or list a directory of a repository."},
	{Name: "repo_tree", Title: "List a ref's files", Toolset: "repos",
		Description: "List every file of a branch, tag or commit (recursive), under a directory or matching a glob, 500 paths a page."},
	{Name: "code_search", Title: "Search code", Toolset: "repos",
		Description: "Find the lines of a branch's files that hold a text or a regular expression (git grep on a cached shallow clone), 50 matches a page."},
	{Name: "repo_commits", Title: "List commits", Toolset: "repos",
		Description: "List the commits of a branch, tag or commit (default: the default branch), newest first."},
	{Name: "repo_collaborators", Title: "List collaborators", Toolset: "repos",
		Description: "List a repository's collaborators and their permission (read, write, admin)."},
	{Name: "issues_list", Title: "List issues", Toolset: "issues",
		Description: "List a repository's issues, filtered by state, author or title text; with bodies, each body's first 1 KiB too."},
	{Name: "issue_view", Title: "Show an issue", Toolset: "issues",
		Description: "Show an issue with its body and comments (10 comments a page)."},
	{Name: "issue_create", Title: "Open an issue", Toolset: "issues", Write: true,
		Description: "WRITE: opens a new issue in the repository, as the user."},
	{Name: "issue_comment", Title: "Comment on an issue", Toolset: "issues", Write: true,
		Description: "WRITE: adds a comment to an issue, as the user."},
	{Name: "issue_close", Title: "Close an issue", Toolset: "issues", Write: true, Destructive: true, Idempotent: true,
		Description: "WRITE: closes an issue."},
	{Name: "issue_reopen", Title: "Reopen an issue", Toolset: "issues", Write: true, Destructive: true, Idempotent: true,
		Description: "WRITE: reopens a closed issue."},
	{Name: "prs_list", Title: "List pull requests", Toolset: "pulls",
		Description: "List a repository's pull requests."},
	{Name: "pr_view", Title: "Show a pull request", Toolset: "pulls",
		Description: "Show a pull request with its description."},
	{Name: "pr_files", Title: "List a pull request's files", Toolset: "pulls",
		Description: "List the files a pull request changes, with lines added and removed."},
	{Name: "pr_diff", Title: "Read a pull request's diff", Toolset: "pulls",
		Description: "Read a pull request's unified diff: whole files packed into pages of 24 KiB, or one file's diff (path) in pages."},
	{Name: "pr_commits", Title: "List a pull request's commits", Toolset: "pulls",
		Description: "List a pull request's own commits, newest first."},
	{Name: "pr_checks", Title: "List a pull request's CI runs", Toolset: "pulls",
		Description: "List the CI runs of a pull request's head commit, with their status and conclusion."},
	{Name: "repo_compare", Title: "Compare two refs", Toolset: "repos",
		Description: "What a branch, tag or commit (head) changed since it left another (base): the files, or with diff the diffs in pages."},
	{Name: "releases_list", Title: "List releases", Toolset: "releases",
		Description: "List a repository's releases, newest first."},
	{Name: "release_view", Title: "Show a release", Toolset: "releases",
		Description: "Show a release by its tag: notes and assets."},
	{Name: "runs_list", Title: "List CI runs", Toolset: "actions",
		Description: "List a repository's CI runs, newest first, filtered by branch or status."},
	{Name: "run_view", Title: "Show a CI run", Toolset: "actions",
		Description: "Show a CI run with its jobs and their steps."},
	{Name: "run_jobs", Title: "List a run's jobs", Toolset: "actions",
		Description: "List the jobs of a CI run with their steps."},
	{Name: "job_log", Title: "Read a job's log", Toolset: "actions",
		Description: "Read a CI job's log from its end, 200 lines a page (page 2 is the 200 lines before)."},
	{Name: "run_explain", Title: "Explain a CI run", Toolset: "actions",
		Description: "Why did this CI run fail (default: the newest failed run, of a branch when given): the run, its jobs and the last lines of each failed job's log, secrets masked."},
	{Name: "registry_repositories", Title: "List image repositories", Toolset: "registry",
		Description: "List the container registry's repositories the user may pull."},
	{Name: "image_tags", Title: "List an image's tags", Toolset: "registry",
		Description: "List an image repository's tags with their digests and image sizes."},
	{Name: "image_manifest", Title: "Show an image's manifest", Toolset: "registry",
		Description: "Show an image's manifest: digest, media type, size (config and layers, compressed), platform, layers."},
	{Name: "image_tag_delete", Title: "Delete an image tag", Toolset: "registry", Write: true, Destructive: true, Idempotent: true,
		Description: "WRITE: deletes one tag of an image from the registry (the manifest and its other tags stay); only under the user's own namespace."},
	{Name: "whoami", Title: "Who am I", Toolset: "account",
		Description: "Who the user is on the service: login, name, role, whether two-factor authentication is on."},
}

// Lookup finds a tool by name.
func Lookup(name string) (Tool, bool) {
	for _, t := range All {
		if t.Name == name {
			return t, true
		}
	}
	return Tool{}, false
}

// ServeOptions are `forge mcp serve`'s flags (and FORGE_MCP_*), as the
// server takes them.
type ServeOptions struct {
	// Repo is -R: the repository tools use when they name none.
	Repo string
	// Toolsets and Tools select what is offered (nil: every toolset).
	Toolsets, Tools []string
	// AllowWrite offers the write tools; Lockdown withholds the titles
	// and bodies of authors without write access.
	AllowWrite, Lockdown bool
	// HTTPAddr serves streamable HTTP there instead of stdio; ListenAny
	// allows an address other than loopback.
	HTTPAddr  string
	ListenAny bool
	// RegistryHosts are registries besides the profile's that the image
	// tools may contact (--allow-registry).
	RegistryHosts []string
}
