package client

import (
	"context"
	"iter"
	"net/http"
	"net/url"
	"strings"

	"github.com/forgehq/forge/internal/linkheader"
)

// ListOptions are the paging parameters every list call accepts. The spec
// shows no pagination parameters; the client asks for a page size under
// the common names (per_page, limit), which a server that does not page
// ignores, and reads the pages as paging.go says.
type ListOptions struct {
	// PerPage asks for pages of this many records; 0 lets the server pick.
	// Callers with a --limit pass min(limit, 100), so one request usually
	// suffices.
	PerPage int
	// Pages, when set, follows the iteration: whether the server holds
	// more than was read, and how many in all (Pages.More, Pages.Total).
	Pages *Pages
}

// Pages is where a list iteration stands: how many records the page read
// last holds and how many of them it handed out, the next page, and what
// the pager made of the answers so far.
type Pages struct {
	c       *Client
	count   int
	yielded int
	next    string
	pager   *Pager
	// filtered: a filter dropped records the service sent, so its
	// totals are not the filtered list's.
	filtered bool
}

// More reports whether the server holds records past those the iteration
// handed out: some of the current page, or a next page.
func (p *Pages) More() bool {
	return p != nil && p.c != nil && (p.yielded < p.count || p.next != "")
}

// Confirm makes sure More's next page holds records when the pager only
// guessed it (a full page without a Link header or a total), with one
// more request; it reports whether the server holds more.
func (p *Pages) Confirm(ctx context.Context) bool {
	if !p.More() {
		return false
	}
	if p.yielded < p.count || !p.pager.Probing() {
		return true
	}
	resp, err := p.c.send(ctx, http.MethodGet, p.next, nil, false)
	if IsNotFound(err) {
		p.next = "" // a service answering 404 past its last page
		return false
	}
	if err != nil {
		return true // cannot tell: say "the first N", not a total
	}
	items, err := listItems(resp.Body)
	if err == nil && (len(items) == 0 || p.pager.Repeats(resp.Body)) {
		p.next = ""
		return false
	}
	return true
}

// Unsure says why forge cannot tell whether the list holds more records
// than the iteration read ("" when it can, or before any page).
func (p *Pages) Unsure() string {
	if p == nil || p.pager == nil {
		return ""
	}
	return p.pager.Unsure()
}

// Total is how many records the whole list holds, when the server lets
// forge tell without reading it all: its X-Total-Count (or X-Total); else
// from the Link header's rel="last" page, (its page - 1) × its page size
// plus the records on it (one more request); else, when the current page
// is the last, from where the iteration stands. ok is false when none of
// these is known (the spec shows no pagination at all) or the request
// fails.
func (p *Pages) Total(ctx context.Context) (total int, ok bool) {
	if p == nil || p.c == nil || p.pager == nil || p.filtered {
		return 0, false
	}
	if n, ok := p.pager.Total(); ok {
		return n, true
	}
	if p.next == "" {
		return p.pager.read, p.pager.unsure == ""
	}
	if p.pager.lastURL == "" {
		return 0, false
	}
	u, err := url.Parse(p.pager.lastURL)
	if err != nil {
		return 0, false
	}
	n, per := pageNumber(u), PageSizeOf(u)
	if per == 0 {
		return 0, false
	}
	resp, err := p.c.send(ctx, http.MethodGet, p.pager.lastURL, nil, false)
	if err != nil {
		return 0, false
	}
	items, err := listItems(resp.Body)
	if err != nil {
		return 0, false
	}
	return (n-1)*per + len(items), true
}

// PageSize is the PerPage to ask for when a caller wants limit records:
// limit itself, up to 100 (GitHub's maximum page size); 0 for no limit.
func PageSize(limit int) int {
	if limit <= 0 {
		return 0
	}
	return min(limit, 100)
}

func (o ListOptions) values(q url.Values) url.Values {
	if q == nil {
		q = url.Values{}
	}
	setPageSize(q, o.PerPage)
	return q
}

// list returns an iterator over the records of a list endpoint. It fetches
// a page only when the previous one is used up and keeps only the current
// page in memory, so a caller that stops early (a --limit reached, a match
// found) never fetches the rest. An error is yielded once, as the last
// element.
func list[T any](c *Client, ctx context.Context, path string, q url.Values, pages *Pages) iter.Seq2[*T, error] {
	return func(yield func(*T, error) bool) {
		first, err := c.resolve(withQuery(path, q))
		if err != nil {
			yield(nil, err)
			return
		}
		pager := NewPager(PageSizeOf(first))
		if pages != nil {
			*pages = Pages{c: c, pager: pager, filtered: pages.filtered}
		}
		next := first.String()
		seen := map[string]bool{}
		for next != "" && !seen[next] {
			seen[next] = true // a server linking a page to itself must not loop
			resp, err := c.send(ctx, http.MethodGet, next, nil, false)
			if IsNotFound(err) && pager.Gone() {
				if pages != nil {
					pages.next = "" // 404 past the last page: the list ended
				}
				return
			}
			if err != nil {
				yield(nil, err)
				return
			}
			items, err := listItems(resp.Body)
			if err != nil {
				yield(nil, &decodeError{method: http.MethodGet, url: c.redact(next), err: err})
				return
			}
			u, _ := url.Parse(next)
			after, use := pager.Next(u, resp.Header, resp.Body, len(items))
			if !use {
				items = nil
			}
			if pages != nil {
				pages.count, pages.yielded, pages.next = len(items), 0, after
			}
			for _, raw := range items {
				v, err := decodeNew[T](raw)
				if pages != nil {
					pages.yielded++
				}
				if !yield(v, err) || err != nil {
					return
				}
			}
			next = after
		}
	}
}

// Collect gathers up to limit records of a list iterator (all when limit
// is 0 or less), stopping the iteration as soon as it has enough.
func Collect[T any](seq iter.Seq2[*T, error], limit int) ([]*T, error) {
	var out []*T
	if limit <= 0 {
		limit = int(^uint(0) >> 1)
	}
	for v, err := range seq {
		if err != nil {
			return out, err
		}
		out = append(out, v)
		if len(out) >= limit {
			break
		}
	}
	return out, nil
}

func withQuery(path string, q url.Values) string {
	if len(q) == 0 {
		return path
	}
	sep := "?"
	if strings.Contains(path, "?") {
		sep = "&"
	}
	return path + sep + q.Encode()
}

// nextLink finds rel="next" in the Link headers (RFC 8288) and resolves it
// against the request's URL.
func nextLink(h http.Header, base *url.URL) string { return linkRel(h, base, "next") }

// linkRel finds the link with relation rel in the Link headers and resolves
// it against the request's URL.
func linkRel(h http.Header, base *url.URL, rel string) string { return linkheader.Rel(h, base, rel) }

// decodeError is an answer that did not decode.
type decodeError struct {
	method, url string
	err         error
}

func (e *decodeError) Error() string { return e.method + " " + e.url + ": " + e.err.Error() }
func (e *decodeError) Unwrap() error { return e.err }
