package main

import (
	"crypto/ed25519"
	"crypto/rand"
	"crypto/x509"
	"encoding/base64"
	"encoding/binary"
	"encoding/pem"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/forgehq/forge/cmd"
	"github.com/forgehq/forge/refserver/refservertest"
	"github.com/rogpeppe/go-internal/testscript"
	"github.com/zalando/go-keyring"
)

// TestMain lets scripts run the real forge command in a child process. It
// finds no keyring service, as on a headless CI machine (and never touches
// the keyring of the machine running the tests), so secrets are kept in
// the config file — unless the script started its own Secret Service
// (secretservice, keyring_script_test.go), on Linux.
func TestMain(m *testing.M) {
	noKeyring := func() {
		if runtime.GOOS != "linux" || os.Getenv("DBUS_SESSION_BUS_ADDRESS") == "" {
			keyring.MockInitWithError(errors.New("no keyring service in tests"))
		}
	}
	testscript.Main(m, map[string]func(){
		"forge": func() { noKeyring(); os.Exit(cmd.Main()) },
		// forge under the name docker tools call it by.
		"docker-credential-forge": func() { noKeyring(); os.Exit(cmd.Main()) },
		// a command whose stdout's reader has gone (brokenpipe_test.go).
		"brokenpipe": func() { os.Exit(brokenPipe(os.Args[1:])) },
	})
}

// TestScripts runs testdata/script/*.txtar end to end. Each script gets an
// empty config directory and home, and no terminal.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 "../../testdata/script",
		RequireExplicitExec: true,
		Setup:               setupScript,
		Cmds:                scriptCmds,
		Condition:           scriptCondition,
		// FORGE_UPDATE_GOLDEN=1 rewrites a failing `cmp stdout FILE` in
		// the script's archive with what the command printed.
		UpdateScripts: os.Getenv("FORGE_UPDATE_GOLDEN") != "",
	})
}

// scriptCmds are builtins for scripts:
//
//	ls-mode PATH               print PATH's permission bits in octal
//	exit-code N CMD [ARGS...]  run CMD and require exit status N
//	srv SUBCOMMAND ...         seed the script's reference server (srv.go)
//	srv2 start|log|SUBCOMMAND  a second reference server, with a request
//	                           log (srv2_test.go)
//	envfile VAR FILE           set $VAR to FILE's content, trimmed (e.g. a
//	                           secret a command printed to stdout)
//	keygen PATH [COMMENT]      write a new ed25519 key pair: PATH (private,
//	                           PKCS#8 PEM) and PATH.pub (OpenSSH line)
//	sub FILE REGEXP REPL       replace every match in FILE (regexp.ReplaceAll
//	                           syntax), e.g. a random port before cmp
//	mkfile PATH SIZE           write SIZE bytes of text to PATH (a body
//	                           too large to keep in a script's archive)
var scriptCmds = map[string]func(ts *testscript.TestScript, neg bool, args []string){
	"ls-mode": func(ts *testscript.TestScript, neg bool, args []string) {
		if len(args) != 1 {
			ts.Fatalf("usage: ls-mode PATH")
		}
		st, err := os.Stat(ts.MkAbs(args[0]))
		ts.Check(err)
		fmt.Fprintf(ts.Stdout(), "%o\n", st.Mode().Perm())
	},
	"mkfile": func(ts *testscript.TestScript, neg bool, args []string) {
		if neg || len(args) != 2 {
			ts.Fatalf("usage: mkfile PATH SIZE")
		}
		n, err := strconv.Atoi(args[1])
		ts.Check(err)
		ts.Check(os.WriteFile(ts.MkAbs(args[0]), []byte(strings.Repeat("a", n)), 0o644))
	},
	"srv":    srvCmd,
	"srv2":   srv2Cmd,
	"sub":    subCmd,
	"keygen": keygenCmd,
	"envfile": func(ts *testscript.TestScript, neg bool, args []string) {
		if len(args) != 2 {
			ts.Fatalf("usage: envfile VAR FILE")
		}
		ts.Setenv(args[0], strings.TrimSpace(ts.ReadFile(args[1])))
	},
	"agent": agentCmd,
	"exit-code": func(ts *testscript.TestScript, neg bool, args []string) {
		if len(args) < 2 {
			ts.Fatalf("usage: exit-code N CMD [ARGS...]")
		}
		want, err := strconv.Atoi(args[0])
		ts.Check(err)
		got := 0
		if err := ts.Exec(args[1], args[2:]...); err != nil {
			var ee *exec.ExitError
			if !errors.As(err, &ee) {
				ts.Fatalf("%s: %v", args[1], err)
			}
			got = ee.ExitCode()
		}
		if got != want {
			ts.Fatalf("%s exited %d, want %d", strings.Join(args[1:], " "), got, want)
		}
	},
}

// scriptCondition adds conditions to testscript's own:
//
//	[bash-completion]  bash and its bash-completion package are installed
func scriptCondition(cond string) (bool, error) {
	switch cond {
	case "bash-completion":
		_, err := os.Stat("/usr/share/bash-completion/bash_completion")
		_, lerr := exec.LookPath("bash")
		return err == nil && lerr == nil, nil
	}
	return false, fmt.Errorf("unknown condition %q", cond)
}

// scriptTB lets refservertest start a script's servers: their Close is
// deferred to the script's end, and a failure fails the script.
type scriptTB struct {
	deferred func(func())
	fatal    func(...any)
}

func (s scriptTB) Helper()           {}
func (s scriptTB) Fatal(args ...any) { s.fatal(args...) }
func (s scriptTB) Cleanup(f func())  { s.deferred(f) }

// setupScript gives each script its own reference server on 127.0.0.1 with
// a random port, stopped when the script ends, and exports
//
//	SERVER_URL       its origin, http://127.0.0.1:PORT
//	SERVER_BASE_URL  the REST base URL, $SERVER_URL/api/v2
//	REGISTRY_HOST    the registry's host:port, for image references (crane, skopeo)
//	ADMIN_USER       the site_admin login ("admin")
//	ADMIN_PASSWORD   its password
//	SERVER_AGENT_URL  the agent API's address (for AGENT_URL)
//	SERVER_AGENT_KEY  its agent API key (for AGENT_API_KEY)
//
// FORGE_BASE_URL, AGENT_URL and AGENT_API_KEY stay unset (scripts test the
// precedence of settings): a script that wants the server sets them, or
// passes --base-url. Runs
// progress at 50 ms a tick, so a seeded run completes within a second or
// two.
func setupScript(env *testscript.Env) error {
	srv := refservertest.Start(scriptTB{env.Defer, env.T().Fatal}, refservertest.CITick(50*time.Millisecond))
	env.Values[srvKey{}] = srv
	env.Values[srv2Key{}] = &second{}
	env.Setenv("SERVER_URL", srv.URL())
	env.Setenv("SERVER_BASE_URL", srv.BaseURL())
	env.Setenv("REGISTRY_HOST", strings.TrimPrefix(srv.URL(), "http://"))
	env.Setenv("ADMIN_USER", srv.AdminUser())
	env.Setenv("ADMIN_PASSWORD", srv.AdminPassword())
	env.Setenv("SERVER_AGENT_URL", srv.AgentURL())
	env.Setenv("SERVER_AGENT_KEY", srv.AgentKey())
	env.Setenv("FORGE_CONFIG_DIR", env.WorkDir+"/.config/forge")
	env.Setenv("HOME", env.WorkDir+"/home")
	env.Setenv("XDG_CACHE_HOME", env.WorkDir+"/.cache")
	for _, k := range []string{"FORGE_PROFILE", "FORGE_BASE_URL", "FORGE_TOKEN", "FORGE_REGISTRY_URL", "FORGE_USERNAME", "FORGE_PASSWORD", "FORGE_REPO", "AGENT_URL", "AGENT_API_KEY", "FORGE_DEBUG", "FORGE_FORCE_TTY", "NO_COLOR", "CLICOLOR_FORCE"} {
		env.Setenv(k, "")
	}
	return nil
}

// keygenCmd writes an ed25519 key pair as ssh-keygen would lay it out:
// the private key in PATH, the public key line in PATH.pub.
func keygenCmd(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) < 1 || len(args) > 2 {
		ts.Fatalf("usage: keygen PATH [COMMENT]")
	}
	comment := "forge-test@script"
	if len(args) == 2 {
		comment = args[1]
	}
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	ts.Check(err)
	der, err := x509.MarshalPKCS8PrivateKey(priv)
	ts.Check(err)
	path := ts.MkAbs(args[0])
	ts.Check(os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}), 0o600))
	str := func(b []byte) []byte { return append(binary.BigEndian.AppendUint32(nil, uint32(len(b))), b...) }
	blob := append(str([]byte("ssh-ed25519")), str(pub)...)
	line := "ssh-ed25519 " + base64.StdEncoding.EncodeToString(blob) + " " + comment + "\n"
	ts.Check(os.WriteFile(path+".pub", []byte(line), 0o644))
}

// subCmd rewrites a file with regexp.ReplaceAll, so output with a random
// port or a commit hash can be compared with a golden file.
func subCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: sub FILE REGEXP REPLACEMENT")
	}
	re, err := regexp.Compile(args[1])
	ts.Check(err)
	path := ts.MkAbs(args[0])
	ts.Check(os.WriteFile(path, re.ReplaceAll([]byte(ts.ReadFile(args[0])), []byte(args[2])), 0o644))
}
