// Package linkheader reads the Link header (RFC 8288) by which services
// page their lists: the REST client's pager and the registry's /api/
// listings both find rel="next" here.
package linkheader

import (
	"net/http"
	"net/url"
	"strings"
)

// Rel finds the link with relation rel in the Link headers and resolves
// it against base (the request's URL; nil leaves it as written). It is ""
// when there is none.
func Rel(h http.Header, base *url.URL, rel string) string {
	for _, line := range h.Values("Link") {
		for _, link := range split(line) {
			target, params, ok := strings.Cut(link, ";")
			target = strings.TrimSpace(target)
			if !ok || !strings.HasPrefix(target, "<") || !strings.HasSuffix(target, ">") {
				continue
			}
			if !hasRel(params, rel) {
				continue
			}
			u, err := url.Parse(target[1 : len(target)-1])
			if err != nil {
				continue
			}
			if base != nil {
				u = base.ResolveReference(u)
			}
			return u.String()
		}
	}
	return ""
}

// split splits a Link header at the commas between links, not those
// inside <...> or quotes.
func split(s string) []string {
	var out []string
	depth, quoted, start := 0, false, 0
	for i, r := range s {
		switch {
		case r == '"':
			quoted = !quoted
		case quoted:
		case r == '<':
			depth++
		case r == '>':
			depth--
		case r == ',' && depth == 0:
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}

// hasRel reports whether link parameters (`; rel="next"; title=x`) carry
// the relation; rel may hold several space-separated types.
func hasRel(params, rel string) bool {
	for _, p := range strings.Split(params, ";") {
		k, v, ok := strings.Cut(strings.TrimSpace(p), "=")
		if !ok || !strings.EqualFold(strings.TrimSpace(k), "rel") {
			continue
		}
		for _, r := range strings.Fields(strings.Trim(strings.TrimSpace(v), `"`)) {
			if strings.EqualFold(r, rel) {
				return true
			}
		}
	}
	return false
}
