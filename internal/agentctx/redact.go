package agentctx

import (
	"regexp"
	"strings"
	"sync"
)

// Mask replaces a secret in redacted text.
const Mask = "****"

// redactions are compiled on first use, not at start-up: a package-level
// regexp costs every forge invocation its compile time.
var redactions = sync.OnceValue(func() []struct {
	re   *regexp.Regexp
	repl string
} {
	return []struct {
		re   *regexp.Regexp
		repl string
	}{
		// The service's REST tokens (fgt_) and agent API keys (agk_).
		{regexp.MustCompile(`\b(fgt|agk)_[A-Za-z0-9]{8,}`), "${1}_" + Mask},
		// The registry's bearer tokens are JWTs.
		{regexp.MustCompile(`\beyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]+`), Mask},
		// Authorization headers, with or without a scheme word.
		{regexp.MustCompile(`(?i)\b((?:proxy-)?authorization"?\s*[:=]\s*"?)((?:basic|bearer|token|digest)\s+)?[^\s"',;]+`), "${1}${2}" + Mask},
		{regexp.MustCompile(`(?i)\b(x-api-key"?\s*[:=]\s*"?)[^\s"',;]+`), "${1}" + Mask},
		// A password in a URL: scheme://user:password@host.
		{regexp.MustCompile(`(?i)\b([a-z][a-z0-9+.-]*://[^\s/@:]*):[^\s/@]+@`), "${1}:" + Mask + "@"},
	}
})

// Redact masks what looks like a secret in text: the service's tokens and
// keys (fgt_..., agk_..., the registry's JWTs), the value of
// Authorization and X-API-Key headers, and passwords in URLs
// (https://user:PASSWORD@host). It errs on the side of masking.
func Redact(text string) string {
	if !maybeSecret(text) {
		return text
	}
	for _, r := range redactions() {
		text = r.re.ReplaceAllString(text, r.repl)
	}
	return text
}

// maybeSecret is a cheap test that skips the regexps for most log lines.
func maybeSecret(text string) bool {
	l := strings.ToLower(text)
	for _, s := range []string{"fgt_", "agk_", "eyj", "authorization", "x-api-key", "://"} {
		if strings.Contains(l, s) {
			return true
		}
	}
	return false
}
