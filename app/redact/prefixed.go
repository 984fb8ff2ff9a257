package redact

import "strings"

// Services mint tokens and keys as a word prefix, an underscore and a
// long random tail (Stripe's sk_live_…, Vault's hvs.…, a CI's vtok_ci_…,
// hsa_live_…). forge cannot know every service's prefixes, and a CI log
// holds tokens forge never held, so any such value is masked by its
// shape: one to three lower-case words, each followed by "_", then a tail
// of letters and digits that looks random. The tail is masked and the
// prefix kept ("hsa_live_****"), so the reader still sees what kind of
// secret was there.
//
// What decides is the tail, so that ordinary identifiers (snake_case
// names, test names, digests, build IDs) stay:
//
//   - mixed case and digits, as base62 tokens are: at least 20
//     characters, 2 digits, a sixth of them upper- and a sixth lower-case
//     (CamelCase names have few capitals and digits), high entropy;
//   - one case and digits, as hex and base36 tokens are: at least 24
//     characters, and only when a prefix word says token or key (tok,
//     key, secret, live, pat, api, auth, ci, ...): a sha256_… digest or a
//     build_… ID stays.
//
// The value is a whole run of letters, digits and underscores (what
// regexp's \b bounds), its tail after the last underscore; a scan, not a
// regexp, since most log lines hold underscores.
// tokenWords are the prefix words that say a one-case tail is a secret.
var tokenWords = []string{"tok", "key", "secret", "live", "prod", "test", "pat", "api", "auth", "ci", "sk", "pk", "rk", "bot", "svc", "access", "refresh", "session", "cred", "pass"}

// prefixed masks the tails of prefixed tokens in s.
func prefixed(s string) string {
	if strings.IndexByte(s, '_') < 0 {
		return s
	}
	var b strings.Builder
	last := 0
	for i := 0; i < len(s); {
		if !wordByte(s[i]) {
			i++
			continue
		}
		j := i
		for j < len(s) && wordByte(s[j]) {
			j++
		}
		run := s[i:j]
		if k := strings.LastIndexByte(run, '_'); k > 0 && len(run)-k-1 >= 20 && prefixWords(run[:k]) && secretTail(run[:k], run[k+1:]) {
			b.WriteString(s[last : i+k+1])
			b.WriteString(Mask)
			last = j
		}
		i = j
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// wordByte reports whether c is a letter, a digit or an underscore.
func wordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// prefixWords reports whether p (without its last underscore) is one to
// three words of a lower-case letter and up to 11 more lower-case letters
// or digits, joined by underscores.
func prefixWords(p string) bool {
	words := strings.Split(p, "_")
	if len(words) > 3 {
		return false
	}
	for _, w := range words {
		if len(w) == 0 || len(w) > 12 || w[0] < 'a' || w[0] > 'z' {
			return false
		}
		for i := 1; i < len(w); i++ {
			if !(w[i] >= 'a' && w[i] <= 'z' || w[i] >= '0' && w[i] <= '9') {
				return false
			}
		}
	}
	return true
}

// secretTail reports whether tail, after prefix, looks like a token's
// random part (see the rules above).
func secretTail(prefix, tail string) bool {
	var digits, upper, lower int
	for _, c := range tail {
		switch {
		case c >= '0' && c <= '9':
			digits++
		case c >= 'A' && c <= 'Z':
			upper++
		default:
			lower++
		}
	}
	if digits < 2 || !highEntropy(tail) {
		return false
	}
	n := len(tail)
	if upper*6 >= n && lower*6 >= n {
		return true // base62
	}
	return n >= 24 && tokenPrefix(prefix)
}

// tokenPrefix reports whether one of the prefix's words says token or key.
func tokenPrefix(prefix string) bool {
	for _, w := range strings.Split(prefix, "_") {
		for _, t := range tokenWords {
			if w == t || len(t) >= 3 && strings.Contains(w, t) {
				return true
			}
		}
	}
	return false
}
