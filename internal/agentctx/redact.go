package agentctx

import (
	"regexp"
	"strings"
	"sync"
)

// Mask replaces a secret in redacted text.
const Mask = "****"

// rule is one kind of secret: a regexp, what replaces its match, and
// lower-case strings a line must hold for the regexp to be worth running
// (most log lines hold none: the regexps are the cost of redaction).
type rule struct {
	needs []string
	re    *regexp.Regexp
	repl  string
}

// rules are compiled on first use, not at start-up: a package-level
// regexp costs every forge invocation its compile time.
var rules = sync.OnceValue(func() []rule {
	return []rule{
		// The service's REST tokens (fgt_) and agent API keys (agk_).
		{[]string{"fgt_"}, regexp.MustCompile(`\bfgt_[A-Za-z0-9]{8,}`), "fgt_" + Mask},
		{[]string{"agk_"}, regexp.MustCompile(`\bagk_[A-Za-z0-9]{8,}`), "agk_" + Mask},
		// The registry's bearer tokens are JWTs.
		{[]string{"eyj"}, regexp.MustCompile(`\beyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]+`), Mask},
		// Authorization headers, with or without a scheme word.
		{[]string{"authorization"}, regexp.MustCompile(`(?i)\b((?:proxy-)?authorization"?\s*[:=]\s*"?)((?:basic|bearer|token|digest)\s+)?[^\s"',;]+`), "${1}${2}" + Mask},
		{[]string{"x-api-key"}, regexp.MustCompile(`(?i)\b(x-api-key"?\s*[:=]\s*"?)[^\s"',;]+`), "${1}" + Mask},
		// A password in a URL: scheme://user:password@host.
		{[]string{"://", "@"}, regexp.MustCompile(`(?i)\b([a-z][a-z0-9+.-]*://[^\s/@:]*):[^\s/@]+@`), "${1}:" + Mask + "@"},
	}
})

// Redact masks what looks like a secret in text: the service's tokens and
// keys (fgt_..., agk_..., the registry's JWTs), the value of
// Authorization and X-API-Key headers, and passwords in URLs
// (https://user:PASSWORD@host). It errs on the side of masking.
func Redact(text string) string {
	var lower string
	for _, r := range rules() {
		if lower == "" {
			lower = strings.ToLower(text)
		}
		run := true
		for _, n := range r.needs {
			run = run && strings.Contains(lower, n)
		}
		if run {
			text = r.re.ReplaceAllString(text, r.repl)
			lower = ""
		}
	}
	return text
}
