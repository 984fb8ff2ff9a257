// Package redact is forge's one redaction: it masks secrets in text that
// leaves the machine for the agent (attached context, `forge run explain`,
// the MCP tools) or that forge shows where a secret has no business.
//
// Two kinds of secret are masked:
//
//   - by value, the secrets forge holds (New's arguments; Held lists them
//     from the resolved settings and the environment), whatever their form:
//     as they are, URL-escaped (also byte by byte), JSON-escaped, in hex, and inside base64 at
//     any alignment (so `Authorization: Basic base64(user:TOKEN)` is caught
//     too);
//   - by form, what looks like a secret whoever holds it: the service's
//     token prefixes (fgt_, agk_) and other forges' (ghp_, glpat-, ...),
//     JWTs, Authorization and X-API-Key header values, `token=`/`password=`
//     assignments, passwords in URLs (scheme://user:PASSWORD@host), and a
//     long high-entropy string after a secret-sounding key; and by shape
//     any prefixed token (a word prefix, "_", a random tail: prefixed.go);
//   - either kind written to slip past a plain match (split.go): split by
//     invisible characters or their <U+00AD> notation, spaced out a
//     character at a time, backwards, or (held) in base32.
//
// Text also removes ANSI escape sequences (colour codes in job logs): the
// agent has no use for them, and a sequence inside a secret would hide it.
package redact

import (
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"net/url"
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/forgehq/forge/config"
)

// Mask replaces a secret.
const Mask = "****"

// MinSecret is the shortest held secret masked by value: a shorter one
// (a 4-letter test password) would mask ordinary words everywhere.
const MinSecret = 6

// minDerived is the shortest derived form (a base64 or hex fragment)
// masked: shorter fragments match by chance.
const minDerived = 8

// Redactor masks the secrets it was made with, and the generic forms.
// A nil *Redactor masks the generic forms only.
type Redactor struct {
	values *strings.Replacer // nil: no held secret
	held   []string          // the secrets, for the forms split.go finds
}

// New returns a Redactor masking each secret (empty and short ones are
// ignored) in every form listed in the package comment.
func New(secrets ...string) *Redactor {
	var forms, held []string
	for _, s := range secrets {
		if len(s) < MinSecret {
			continue
		}
		forms = append(forms, variants(s)...)
		held = append(held, s)
	}
	if len(forms) == 0 {
		return &Redactor{}
	}
	slices.Sort(forms)
	forms = slices.Compact(forms)
	// strings.Replacer tries its old strings in argument order at each
	// position: the longest first, so a form is never half-masked by a
	// shorter one it contains.
	sort.SliceStable(forms, func(i, j int) bool { return len(forms[i]) > len(forms[j]) })
	pairs := make([]string, 0, 2*len(forms))
	for _, f := range forms {
		pairs = append(pairs, f, Mask)
	}
	return &Redactor{values: strings.NewReplacer(pairs...), held: held}
}

// variants are the forms a secret may take in a log or a trace.
func variants(s string) []string {
	out := []string{s, url.QueryEscape(s), url.PathEscape(s)}
	if j, err := json.Marshal(s); err == nil {
		j := strings.Trim(string(j), `"`)
		out = append(out, j, strings.ReplaceAll(j, "/", `\/`))
	}
	out = append(out, moreVariants(s)...)
	h := hex.EncodeToString([]byte(s))
	out = append(out, h, strings.ToUpper(h), percentAll(h), strings.ToUpper(percentAll(h)))
	for _, enc := range []*base64.Encoding{base64.RawStdEncoding, base64.RawURLEncoding} {
		out = append(out, base64Fragments(enc, s)...)
	}
	kept := out[:0]
	for _, v := range out {
		if len(v) >= MinSecret && (v == s || len(v) >= minDerived) {
			kept = append(kept, v)
		}
	}
	return kept
}

// percentAll is hex (two digits a byte) percent-encoded byte by byte, as
// some tools escape every byte of a URL component.
func percentAll(h string) string {
	var b strings.Builder
	for i := 0; i+1 < len(h); i += 2 {
		b.WriteString("%" + h[i:i+2])
	}
	return b.String()
}

// base64Fragments are the characters that encode s alone wherever it
// starts in a base64 stream: for each of the three alignments, the
// encoding of s after 0, 1 or 2 other bytes without the characters that
// share bits with its neighbours.
func base64Fragments(enc *base64.Encoding, s string) []string {
	var out []string
	for k := 0; k < 3; k++ {
		e := enc.EncodeToString(append(make([]byte, k), s...))
		from := (8*k + 5) / 6
		to := (8 * (k + len(s))) / 6
		if to-from >= minDerived {
			out = append(out, e[from:to])
		}
	}
	return out
}

// Text returns s with the ANSI escape sequences removed and every secret
// masked.
func (r *Redactor) Text(s string) string {
	s = StripANSI(s)
	if r != nil && r.values != nil {
		s = r.values.Replace(s)
	}
	return r.unsplit(generic(s))
}

// Lines redacts each line in place.
func (r *Redactor) Lines(lines []string) {
	for i, l := range lines {
		lines[i] = r.Text(l)
	}
}

// Held lists the secrets forge holds for a command run with settings s:
// the REST token, the agent key and the registry password, and the value
// of every FORGE_* or AGENT_* environment variable whose name sounds
// secret (TOKEN, KEY, PASSWORD, SECRET, CREDENTIAL), read through getenv
// (the names come from the process environment plus the ones forge
// knows). redact.New(redact.Held(s, getenv)...) is the Redactor for what
// a command sends to the agent.
func Held(s config.Settings, getenv func(string) string) []string {
	out := []string{s.Token, s.AgentKey, s.RegistryPassword}
	names := []string{"FORGE_TOKEN", "AGENT_API_KEY", "FORGE_PASSWORD"}
	for _, kv := range os.Environ() {
		if name, _, ok := strings.Cut(kv, "="); ok {
			names = append(names, name)
		}
	}
	for _, n := range names {
		if secretEnv(n) {
			if v := getenv(n); v != "" {
				out = append(out, v)
			}
		}
	}
	return out
}

// secretEnv reports whether an environment variable is one of forge's or
// the agent's and is named like a secret.
func secretEnv(name string) bool {
	u := strings.ToUpper(name)
	if !strings.HasPrefix(u, "FORGE_") && !strings.HasPrefix(u, "AGENT_") {
		return false
	}
	for _, w := range []string{"TOKEN", "KEY", "PASSWORD", "PASSWD", "SECRET", "CREDENTIAL"} {
		if strings.Contains(u, w) {
			return true
		}
	}
	return false
}

// ansi matches the escape sequences a terminal acts on: CSI (colours,
// cursor moves), OSC (titles, hyperlinks) up to BEL or ST, and two-byte
// escapes.
var ansi = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]|\x{9b}[0-?]*[ -/]*[@-~]`)
})

// StripANSI removes ANSI escape sequences from s.
func StripANSI(s string) string {
	if !strings.ContainsAny(s, "\x1b\u009b") {
		return s
	}
	return ansi().ReplaceAllString(s, "")
}
