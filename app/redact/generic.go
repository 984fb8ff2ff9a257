package redact

import (
	"math"
	"regexp"
	"strings"
	"sync"
)

// rule is one form of secret: a regexp whose last group is the secret
// (the text before it is kept), lower-case strings of which a line must
// hold one for the regexp to be worth running (most log lines hold none:
// the regexps are the cost of redaction), and an optional check of the
// secret's shape.
type rule struct {
	any   []string
	re    *regexp.Regexp
	check func(string) bool
}

// secretKey is a name that sounds like it holds a secret.
const secretKey = `[\w.-]*(?:token|secret|passw(?:or)?d|pwd|api[_-]?key|apikey|access[_-]?key|private[_-]?key|credential|signature)[\w.-]*`

// rules are compiled on first use, not at start-up: a package-level
// regexp costs every forge invocation its compile time.
var rules = sync.OnceValue(func() []rule {
	// Header values first: "Authorization: token fgt_..." is masked
	// whole, not as "token fgt_****".
	return []rule{
		// Authorization headers, with or without a scheme word, and a
		// bearer token anywhere.
		{[]string{"authorization"}, regexp.MustCompile(`(?i)\b((?:proxy-)?authorization"?\s*[:=]\s*"?(?:(?:basic|bearer|token|digest)\s+)?)([^\s"',;]+)`), nil},
		{[]string{"bearer"}, regexp.MustCompile(`(?i)\b(bearer\s+)([A-Za-z0-9._~+/-]{12,}=*)`), nil},
		{[]string{"x-api-key"}, regexp.MustCompile(`(?i)\b(x-api-key"?\s*[:=]\s*"?)([^\s"',;]+)`), nil},
		// The service's REST tokens (fgt_) and agent API keys (agk_), and
		// other forges' tokens a CI log may hold.
		{[]string{"fgt_", "agk_", "gh", "glpat-"}, regexp.MustCompile(`\b((?:fgt|agk|ghp|gho|ghu|ghs|ghr)_)([A-Za-z0-9]{8,})`), nil},
		{[]string{"github_pat_"}, regexp.MustCompile(`\b(github_pat_)([A-Za-z0-9_]{20,})`), nil},
		{[]string{"glpat-"}, regexp.MustCompile(`\b(glpat-)([A-Za-z0-9_-]{16,})`), nil},
		// JWTs (the registry's bearer tokens among them).
		{[]string{"eyj"}, regexp.MustCompile(`\b()(eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]+)`), nil},
		// A password in a URL: scheme://user:password@host.
		{[]string{"://"}, regexp.MustCompile(`(?i)\b([a-z][a-z0-9+.-]*://[^\s/@:]*:)([^\s/@]+)@`), nil},
		// Assignments: password=..., "api_key": "...", ?access_token=...;
		// a password also after a bare colon (YAML, prompts echoed).
		{[]string{"token", "secret", "passw", "pwd", "key", "credential", "signature"}, regexp.MustCompile(`(?i)\b(` + secretKey + `(?:\s*=\s*["']?|["']\s*[:=]\s*["']))([^\s"'&;,]+)`), nil},
		{[]string{"passw", "pwd"}, regexp.MustCompile(`(?i)\b([\w.-]*(?:passw(?:or)?d|pwd)\s*:\s*["']?)([^\s"'&;,]+)`), nil},
		// A long high-entropy string after a secret-sounding key, however
		// the two are joined.
		{[]string{"token", "secret", "passw", "pwd", "key", "credential", "signature", "auth"}, regexp.MustCompile(`(?i)\b((?:` + secretKey + `|[\w.-]*(?:key|auth)[\w.-]*)["']?\s*[:=]?\s*["']?\s*)([A-Za-z0-9+/_.~-]{20,}=*)`), highEntropy},
	}
})

// generic masks the forms of secret the rules know.
func generic(s string) string {
	var lower string
	for _, r := range rules() {
		if lower == "" {
			lower = strings.ToLower(s)
		}
		if !containsAny(lower, r.any) {
			continue
		}
		if out, changed := r.apply(s); changed {
			s, lower = out, ""
		}
	}
	return prefixed(s)
}

func containsAny(s string, subs []string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// apply masks the last group of each match that passes the check.
func (r rule) apply(s string) (string, bool) {
	ms := r.re.FindAllStringSubmatchIndex(s, -1)
	if ms == nil {
		return s, false
	}
	var b strings.Builder
	last, changed := 0, false
	for _, m := range ms {
		from, to := m[len(m)-2], m[len(m)-1]
		if from < 0 || strings.Contains(s[from:to], Mask) || (r.check != nil && !r.check(s[from:to])) {
			continue
		}
		b.WriteString(s[last:from])
		b.WriteString(Mask)
		last, changed = to, true
	}
	if !changed {
		return s, false
	}
	b.WriteString(s[last:])
	return b.String(), true
}

// highEntropy reports whether s looks random: digits mixed with upper-
// and lower-case letters (or, from 32 characters, with either, as hex
// keys are), and at least 3.5 bits of Shannon entropy per character
// (English words, paths and cache keys have less; tokens and keys more).
func highEntropy(s string) bool {
	var digits, lower, upper bool
	counts := map[rune]int{}
	for _, c := range s {
		counts[c]++
		switch {
		case c >= '0' && c <= '9':
			digits = true
		case c >= 'a' && c <= 'z':
			lower = true
		case c >= 'A' && c <= 'Z':
			upper = true
		}
	}
	if !digits || !(lower && upper || len(s) >= 32 && (lower || upper)) {
		return false
	}
	h := 0.0
	n := float64(len(s))
	for _, k := range counts {
		p := float64(k) / n
		h -= p * math.Log2(p)
	}
	return h >= 3.5
}
