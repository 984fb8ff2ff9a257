package redact

import (
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/forgehq/forge/config"
)

func TestGenericForms(t *testing.T) {
	const jwt = "eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9.c2lnbmF0dXJlX2J5dGVz"
	cases := []struct{ in, want, secret string }{
		{"using token fgt_AbCdEf0123456789AbCdEf0123456789AbCdEf01 for the push", "using token fgt_**** for the push", "fgt_AbCdEf0123456789"},
		{"AGENT_API_KEY=agk_0123456789abcdef0123456789abcdef", "AGENT_API_KEY=agk_****", "agk_0123456789abcdef"},
		{"export GH=ghp_A1b2C3d4E5f6G7h8I9j0", "export GH=ghp_****", "A1b2C3d4E5f6"},
		{"registry token: " + jwt, "registry token: ****", jwt},
		{"> Authorization: token s3cr3t-value", "> Authorization: token ****", "s3cr3t-value"},
		{"authorization: Bearer abc.def.ghi", "authorization: Bearer ****", "abc.def.ghi"},
		{`-H "Authorization: Basic YWxpY2U6cGFzcw=="`, `-H "Authorization: Basic ****"`, "YWxpY2U6cGFzcw"},
		{"Authorization=raw-secret-1", "Authorization=****", "raw-secret-1"},
		{"X-API-Key: k3y-value", "X-API-Key: ****", "k3y-value"},
		{"curl -H 'bearer Zx81kd0Qm2Lw9s7' x", "curl -H 'bearer ****' x", "Zx81kd0Qm2Lw9s7"},
		{"fetching https://alice:hunter2pass@git.example.com/alice/demo.git", "fetching https://alice:****@git.example.com/alice/demo.git", "hunter2pass"},
		{"DATABASE_URL=postgres://app:pa%40ss@db:5432/app", "DATABASE_URL=postgres://app:****@db:5432/app", "pa%40ss"},
		{"db password=hunter2 host=db", "db password=**** host=db", "hunter2"},
		{`{"api_key": "plainvalue", "n": 1}`, `{"api_key": "****", "n": 1}`, "plainvalue"},
		{"GET /cb?access_token=abc123&x=1", "GET /cb?access_token=****&x=1", "abc123"},
		{"  password: correct-horse", "  password: ****", "correct-horse"},
		{"deploy key: Q2hhbmdlTWUhX3RoaXNfa2V5X2lzX3JhbmRvbTEyMw", "deploy key: ****", "Q2hhbmdlTWUhX3RoaXNfa2V5"},
		{"SIGNING_SECRET 7f9K2mQp4Xz8Lr1Vb6Nc3Hd5", "SIGNING_SECRET ****", "7f9K2mQp4Xz8Lr1Vb6Nc3Hd5"},
	}
	var r *Redactor // nil: the generic forms only
	for _, c := range cases {
		got := r.Text(c.in)
		if got != c.want {
			t.Errorf("Text(%q)\n got %q\nwant %q", c.in, got, c.want)
		}
		if strings.Contains(got, c.secret) {
			t.Errorf("Text(%q) kept the secret %q", c.in, c.secret)
		}
	}
}

func TestLeavesOrdinaryLines(t *testing.T) {
	r := New("s3cret-token-value")
	for _, s := range []string{
		"2026-01-02T03:04:05.000Z ##[error]Process completed with exit code 1.",
		"see https://example.com/docs for the authorization rules",
		"ok  \texample.com/app\t0.012s",
		"fgt_short is not a token",
		"tokens: 12 prompt + 40 reply",
		"cache key: node-modules-linux-x64",
		"author: alice <alice@example.com>",
		"the monkey ate the banana",
	} {
		if got := r.Text(s); got != s {
			t.Errorf("Text(%q) = %q, want it unchanged", s, got)
		}
	}
}

// TestHeldSecretsInAnyForm: a secret forge holds is masked whatever form
// a log gives it, though it has no prefix and no key names it.
func TestHeldSecretsInAnyForm(t *testing.T) {
	const tok = "Zq7-ordinary/looking+secret"
	r := New(tok, "", "short")
	b64 := func(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }
	for _, in := range []string{
		"echo " + tok,
		"GET /x?t=" + url.QueryEscape(tok),
		"path /" + url.PathEscape(tok) + "/y",
		`{"v":"` + strings.ReplaceAll(tok, "/", `\/`) + `"}`,
		"hex " + hex.EncodeToString([]byte(tok)),
		"pct " + pctEach(tok),
		"HEX " + strings.ToUpper(hex.EncodeToString([]byte(tok))),
		"Basic " + b64("alice:"+tok),
		"Basic " + b64("al:"+tok),
		"Basic " + b64("a:"+tok),
		"b64url " + base64.RawURLEncoding.EncodeToString([]byte("x"+tok+"yz")),
	} {
		got := r.Text(in)
		if !strings.Contains(got, Mask) {
			t.Errorf("Text(%q) = %q: nothing masked", in, got)
		}
		for _, v := range variants(tok) {
			if strings.Contains(got, v) {
				t.Errorf("Text(%q) = %q keeps the form %q", in, got, v)
			}
		}
	}
	if got := r.Text("a short word"); got != "a short word" {
		t.Errorf("a secret under %d bytes masked ordinary text: %q", MinSecret, got)
	}
}

func TestStripsANSI(t *testing.T) {
	in := "\x1b[31mred\x1b[0m \x1b]8;;http://x\x07link\x1b]8;;\x07 \x1b[1;32mok\x1b[K fgt_\x1b[0mAbCdEf0123456789"
	got := New().Text(in)
	if strings.Contains(got, "\x1b") {
		t.Errorf("escape left: %q", got)
	}
	if !strings.HasPrefix(got, "red link ok ") || strings.Contains(got, "AbCdEf0123456789") {
		t.Errorf("Text = %q", got)
	}
}

func TestHeld(t *testing.T) {
	t.Setenv("FORGE_DEPLOY_TOKEN", "deploy-secret-1")
	t.Setenv("AGENT_SECRET_X", "agent-secret-2")
	t.Setenv("FORGE_BASE_URL", "http://not.a.secret")
	env := map[string]string{"FORGE_DEPLOY_TOKEN": "deploy-secret-1", "AGENT_SECRET_X": "agent-secret-2", "FORGE_BASE_URL": "http://not.a.secret", "FORGE_PASSWORD": "env-password"}
	got := Held(config.Settings{Token: "tok-1", AgentKey: "key-2", RegistryPassword: "pw-3"}, func(k string) string { return env[k] })
	s := fmt.Sprint(got)
	for _, want := range []string{"tok-1", "key-2", "pw-3", "deploy-secret-1", "agent-secret-2", "env-password"} {
		if !strings.Contains(s, want) {
			t.Errorf("Held = %v, missing %q", got, want)
		}
	}
	if strings.Contains(s, "not.a.secret") {
		t.Errorf("Held = %v holds FORGE_BASE_URL", got)
	}
}

func pctEach(s string) string {
	var b strings.Builder
	for _, c := range []byte(s) {
		fmt.Fprintf(&b, "%%%02X", c)
	}
	return b.String()
}
