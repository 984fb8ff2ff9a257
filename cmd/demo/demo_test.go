package demo_test

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/cmd"
	"github.com/forgehq/forge/cmd/companion"
	"github.com/forgehq/forge/cmd/companion/companiontest"
	"github.com/forgehq/forge/cmd/demo"
	"github.com/forgehq/forge/internal/iostreams"
)

// withForgeServer installs the test binary as forge-server (its TestMain
// runs it as one by that name) for a demo run in this process to find, as
// a package installs it: on the PATH, the working directory outside
// forge's clone (inside it, forge would build cmd/forge-server from the
// clone instead). It returns the directory.
func withForgeServer(t *testing.T) string {
	t.Helper()
	dir := companiontest.Install(t, companion.Binary)
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	t.Chdir(t.TempDir())
	return dir
}

// fastDemo returns the demo's options at test pace, with an environment
// that holds a config directory and a token of the user's own, which the
// demo must leave alone, and a forge-server to start.
func fastDemo(t *testing.T, run demo.Runner) (*demo.Options, string, func() string, func() string) {
	withForgeServer(t)
	ios, _, out, errOut := iostreams.Test()
	userConfig := t.TempDir()
	env := map[string]string{"FORGE_CONFIG_DIR": userConfig, "FORGE_TOKEN": "user-token-never-used", "FORGE_BASE_URL": "http://127.0.0.1:1/api/v2"}
	f := cmdutil.New(ios, func(k string) string { return env[k] })
	opts := demo.NewOptions(f, run)
	opts.CITick, opts.AgentDelay, opts.WatchInterval = 20*time.Millisecond, 0, "50ms"
	return opts, userConfig, out.String, errOut.String
}

// TestDemo runs the whole tour without a terminal: it succeeds, shows each
// step's command before its output, and leaves the user's configuration
// alone.
func TestDemo(t *testing.T) {
	opts, userConfig, stdout, stderr := fastDemo(t, cmd.Run)
	if err := demo.Run(context.Background(), opts); err != nil {
		t.Fatalf("demo: %v (exit %d)\nstdout:\n%s\nstderr:\n%s", err, cmdcore.ExitCode(err), stdout(), stderr())
	}
	noChildren(t) // its forge-server is gone with it
	out, errs := stdout(), stderr()
	// Each step's command line, in order, each followed by what it printed.
	steps := []struct{ command, output string }{
		{`$ echo forge-demo-password | forge auth login --base-url http://127.0.0.1:\d+/api/v2 --username alice --password-stdin`, ``},
		{`$ forge auth status`, `(?m)^  ✓ Logged in as alice`},
		{`$ forge repo create hello --init --description 'Made by forge demo'`, `(?m)^http://127.0.0.1:\d+/alice/hello$`},
		{`$ forge issue create -R alice/hello --title 'Say hello in French too' --body 'Bonjour!'`, `(?m)^http://127.0.0.1:\d+/alice/hello/issues/1$`},
		{`$ forge issue close 1 -R alice/hello --comment 'Done: bonjour.'`, ``},
		{`$ forge issue list -R alice/hello --state all`, "(?m)^1\tSay hello in French too\tclosed\talice\t"},
		{`$ forge api -X POST repos/alice/hello/actions/runs -f ref=main --jq .id`, `(?m)^\d+$`},
		{`$ forge run watch \d+ -R alice/hello --exit-status --interval 50ms`, `(?m)^run \d+ CI: completed \(success\)$`},
		{`$ forge auth 2fa setup`, `(?m)^████ ▄▄▄▄▄ █`},
		{`$ forge auth 2fa setup --code \d{6}`, ``},
		{`$ forge chat -m 'How do I watch a CI run from the terminal?'`, `You asked about`},
		{`$ echo forge-demo-password | forge image login --username alice --password-stdin`, ``},
		{`$ forge image push /\S+/site hello:1.0`, `(?m)^127.0.0.1:\d+/alice/hello:1.0@sha256:[0-9a-f]{64}$`},
		{`$ forge image tags hello`, "(?m)^1.0\tsha256:[0-9a-f]{64}\t"},
	}
	rest := out
	for _, s := range steps {
		re := regexp.MustCompile(`(?m)^` + quoteLiteral(s.command) + `$`)
		loc := re.FindStringIndex(rest)
		if loc == nil {
			t.Fatalf("stdout lacks, after the steps before it, %q:\n%s", s.command, out)
		}
		rest = rest[loc[1]:]
		if s.output != "" && !regexp.MustCompile(s.output).MatchString(rest) {
			t.Errorf("after %q, stdout lacks %q", s.command, s.output)
		}
	}
	for _, want := range []string{
		"✓ Logged in to http://127.0.0.1:",
		"✓ Closed issue #1 (Say hello in French too)",
		"✓ Two-factor authentication is on",
		"✓ Pushed 127.0.0.1:",
	} {
		if !strings.Contains(errs, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errs)
		}
	}
	if !strings.Contains(out, "The tour is done") {
		t.Errorf("no closing line:\n%s", out)
	}
	// Piped too, it ends with what to do next.
	// The install line is README's step 2: forge with both companions.
	for _, want := range []string{"What next: forge on a server of your own", "go build -o ~/.local/bin/ ./cmd/forge ./cmd/forge-server ./cmd/forge-mcp\n",
		"forge serve --demo --env-file forge.env", "forge auth login --username alice"} {
		if !strings.Contains(out[strings.Index(out, "The tour is done"):], want) {
			t.Errorf("after the tour, stdout lacks %q", want)
		}
	}
	// The demo's own directory is gone; the user's configuration untouched.
	dir := regexp.MustCompile(`(?m)configuration of its own in (\S+)\.$`).FindStringSubmatch(out)
	if dir == nil {
		t.Fatalf("the demo does not say where its configuration is:\n%s", out)
	}
	if _, err := os.Stat(dir[1]); !os.IsNotExist(err) {
		t.Errorf("%s is still there: %v", dir[1], err)
	}
	if entries, _ := os.ReadDir(userConfig); len(entries) != 0 {
		t.Errorf("the demo wrote into the user's configuration: %v", entries)
	}
	if strings.Contains(out+errs, "user-token-never-used") {
		t.Error("the user's token shows in the output")
	}
}

// quoteLiteral quotes a step's command for a regexp, keeping the \d and
// \S classes the table uses for ports, IDs, codes and paths.
func quoteLiteral(s string) string {
	classes := []string{`\d+`, `\d{6}`, `\S+`}
	var b strings.Builder
	for len(s) > 0 {
		if i := slices.IndexFunc(classes, func(c string) bool { return strings.HasPrefix(s, c) }); i >= 0 {
			b.WriteString(classes[i])
			s = s[len(classes[i]):]
			continue
		}
		b.WriteString(regexp.QuoteMeta(s[:1]))
		s = s[1:]
	}
	return b.String()
}

// TestDemoStopsOnFailure: a failing step ends the demo with its exit code
// and says which command failed; the later steps do not run.
func TestDemoStopsOnFailure(t *testing.T) {
	var ran [][]string
	failing := func(ctx context.Context, f *cmdutil.Factory, args []string) int {
		ran = append(ran, args)
		if args[0] == "issue" && args[1] == "close" {
			return 4
		}
		return cmd.Run(ctx, f, args)
	}
	opts, _, stdout, stderr := fastDemo(t, failing)
	err := demo.Run(context.Background(), opts)
	if code := cmdcore.ExitCode(err); code != 4 {
		t.Fatalf("exit %d (%v), want 4", code, err)
	}
	if !strings.Contains(stderr(), "forge: the demo stopped: `forge issue close 1 -R alice/hello --comment 'Done: bonjour.'` failed (exit 4)") {
		t.Errorf("stderr:\n%s", stderr())
	}
	if last := ran[len(ran)-1]; last[1] != "close" || strings.Contains(stdout(), "tour is done") {
		t.Errorf("the demo went on after the failure: last ran %v", last)
	}
	// A failed demo removes its directory too.
	if dir := regexp.MustCompile(`(?m)configuration of its own in (\S+)\.$`).FindStringSubmatch(stdout()); dir == nil {
		t.Errorf("the demo does not say where its configuration is")
	} else if _, err := os.Stat(dir[1]); !os.IsNotExist(err) {
		t.Errorf("%s is still there after a failure: %v", dir[1], err)
	}
	// Nor does its server outlive it.
	noChildren(t)
}

// TestDemoWithoutForgeServer: without a forge-server to start, the demo
// says where forge looked and how to get one, in one line, exit 1, and
// leaves no directory behind.
func TestDemoWithoutForgeServer(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	opts, _, stdout, _ := fastDemo(t, cmd.Run)
	t.Setenv("PATH", t.TempDir())
	err := demo.Run(context.Background(), opts)
	if err == nil || cmdcore.ExitCode(err) != 1 || !strings.HasPrefix(err.Error(), "forge-server is not installed beside forge") || strings.Contains(err.Error(), "\n") {
		t.Errorf("demo without forge-server: %v", err)
	}
	if stdout() != "" {
		t.Errorf("stdout: %q", stdout())
	}
	if left, _ := filepath.Glob(filepath.Join(tmp, "forge-demo-*")); len(left) != 0 {
		t.Errorf("left behind: %v", left)
	}
}
