package client

import (
	"crypto/sha256"
	"iter"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/forgehq/forge/internal/origin"
)

// The spec shows no pagination, so forge reads every common way a service
// pages a list (docs/reading-the-service.md lists them):
//
//   - Link: rel="next" (absolute or relative target, rel quoted or bare,
//     a page number or an opaque cursor in it): followed as given;
//   - X-Next-Page (GitLab): the page number to ask for next;
//   - no Link: page numbers, `page=N+1` with the same page size, while the
//     total (X-Total-Count, X-Total) says more exist, or, without a
//     total, while pages come back full;
//   - no paging at all: the whole list in one answer (a second page equal
//     to the first says the service ignores `page`);
//   - a 404 for a page after the first: the list ended there (Gone).
//
// forge asks for a page size under both common names, per_page (GitHub,
// GitLab) and limit (Gitea, many others), so a service honouring either
// sends pages of the size forge wants. A short page without a Link header
// or a total is the last, unless its size is a common default (10, 20, 25,
// 30, 50, 100): then one more request tells. Where forge cannot tell whether more exist (the
// service ignores `page` but cut the list at the size asked, or its total
// says more than it gives), Pager.Unsure says so, for the caller to say on
// stderr rather than present a partial list as whole.
//
// Two bounds hold whatever the service sends: a next page on another
// origin than the page that named it (scheme, host and port) is not
// followed, since its answer is not the service's list and the request
// would go where the service's credentials do not belong; and one list is
// read to at most MaxPages pages, so a next link that never ends does not
// keep forge reading forever. Either stops the walk with Unsure saying
// why.

// MaxPages is the most pages forge reads of one list: 1000 pages, 100,000
// records at the page size forge asks.
const MaxPages = 1000

// Pager walks the pages of one list.
type Pager struct {
	size    int // the page size asked for
	page    int // the number of the page read last (from 1)
	read    int // records read on all pages
	total   int // the list's size as the server reported it; -1 unknown
	first   int // records on the first page
	prev    [sha256.Size]byte
	unsure  string
	lastURL string
	linked  bool // the service has sent Link headers: it pages by Link
	probe   bool // the next page is a guess: a full page, no Link, no total
	pages   int  // answers read
}

// NewPager starts a walk over pages of size records (the size forge
// asked for; 0 when it asked none).
func NewPager(size int) *Pager { return &Pager{size: size, total: -1} }

// Next reads one page's answer — the URL it came from, its headers, its
// body and how many records it held — and returns the URL of the page
// after it, "" for none. use is false when the page repeats the one
// before (the service ignores `page`): its records were already read.
// A next page on another origin, or past MaxPages, is not given: next is
// "" and Unsure says why.
func (p *Pager) Next(cur *url.URL, h http.Header, body []byte, count int) (next string, use bool) {
	p.pages++
	next, use = p.follow(cur, h, body, count)
	switch {
	case next == "":
	case !origin.SameString(next, cur.String()):
		p.unsure = "the service's next page is on another origin (" + origin.OfString(next) + "), which forge does not follow"
		next, p.probe = "", false
	case p.pages >= MaxPages:
		p.unsure = "forge reads at most " + strconv.Itoa(MaxPages) + " pages of one list (client.MaxPages), and the service offers more; narrow the request"
		next, p.probe = "", false
	}
	return next, use
}

// follow is Next without its bounds.
func (p *Pager) follow(cur *url.URL, h http.Header, body []byte, count int) (next string, use bool) {
	p.page, p.probe = pageNumber(cur), false
	if t, ok := headerTotal(h); ok {
		p.total = t
	}
	if last := linkRel(h, cur, "last"); last != "" && origin.SameString(last, cur.String()) {
		p.lastURL = last
	}
	p.linked = p.linked || len(h.Values("Link")) > 0
	if next := linkRel(h, cur, "next"); next != "" {
		p.read += count
		return next, true
	}
	if n, err := strconv.Atoi(strings.TrimSpace(h.Get("X-Next-Page"))); err == nil && n > p.page {
		p.read += count
		return withPage(cur, n), true
	}
	if p.linked {
		p.read += count
		return "", true // pages by Link, and this is the last
	}
	sum := sha256.Sum256(body)
	if p.read > 0 && sum == p.prev {
		// The service answers every page with the first: it does not page,
		// or pages without reading `page`.
		switch {
		case p.total > p.read:
			p.unsure = "the service reported " + strconv.Itoa(p.total) + " but answers every page with the first " + strconv.Itoa(p.read)
		case p.total < 0 && p.looksCut(p.first):
			p.unsure = "the service ignores page numbers and sent " + strconv.Itoa(p.first) + " records, a page's worth"
		}
		return "", false
	}
	p.prev = sum
	if p.read == 0 {
		p.first = count
	}
	p.read += count
	switch {
	case count == 0:
		if p.total > p.read {
			p.unsure = "the service reported " + strconv.Itoa(p.total) + " but sent only " + strconv.Itoa(p.read)
		}
		return "", true
	case p.total >= 0:
		if p.read >= p.total {
			return "", true
		}
	case p.size > 0 && count < p.size && !commonPageSize(count):
		return "", true // a short page is the last
	}
	p.probe = p.total < 0
	return withPage(cur, p.page+1), true
}

// Gone reads a 404 answer to the page Next gave. A service paging by
// number may answer 404 past its last page rather than with an empty one,
// so a 404 for any page after the first ends the list with the records
// read; for the first page (nothing read yet) it reports false: the list
// itself is not there. When the service had announced that page (a Link,
// X-Next-Page, or a total saying more exist) rather than forge guessing
// it after a full page, forge cannot tell whether it has every record,
// and Unsure says so.
func (p *Pager) Gone() bool {
	if p.page == 0 {
		return false
	}
	if !p.probe {
		p.unsure = "the service answered 404 (not found) for the next page it had announced"
	}
	return true
}

// Probing reports whether the next page Next gave is a guess (a full page
// came without a Link header or a total): it may be empty, or repeat the
// last.
func (p *Pager) Probing() bool { return p.probe }

// Repeats reports whether a page's body is the one read last.
func (p *Pager) Repeats(body []byte) bool { return sha256.Sum256(body) == p.prev }

// looksCut reports whether a page of n records may have been cut by the
// service: n is the size asked for, or a common default page size.
func (p *Pager) looksCut(n int) bool { return n == p.size || commonPageSize(n) }

// commonPageSize reports whether n is a page size services default to. A
// page of that many records, shorter than asked, may still not be the
// last (the service ignored the size asked for): one more request tells.
func commonPageSize(n int) bool {
	switch n {
	case 10, 20, 25, 30, 50, 100:
		return true
	}
	return false
}

// Read is how many records the pages held (a repeated page not counted).
func (p *Pager) Read() int { return p.read }

// Unsure says why forge cannot tell whether the list holds more records
// than it read ("" when it can).
func (p *Pager) Unsure() string { return p.unsure }

// Total is the list's size as the service reported it (X-Total-Count or
// X-Total); ok is false when it reported none.
func (p *Pager) Total() (n int, ok bool) { return p.total, p.total >= 0 }

// headerTotal reads the list's size from X-Total-Count (GitHub's search,
// Gitea, JSON Server) or X-Total (GitLab).
func headerTotal(h http.Header) (int, bool) {
	for _, k := range []string{"X-Total-Count", "X-Total"} {
		if n, err := strconv.Atoi(strings.TrimSpace(h.Get(k))); err == nil && n >= 0 {
			return n, true
		}
	}
	return 0, false
}

// pageNumber is the page a URL asks for (1 without a page parameter).
func pageNumber(u *url.URL) int {
	if u == nil {
		return 1
	}
	n, err := strconv.Atoi(u.Query().Get("page"))
	if err != nil || n < 1 {
		return 1
	}
	return n
}

// withPage is u asking for page n, all else the same.
func withPage(u *url.URL, n int) string {
	c := *u
	q := c.Query()
	q.Set("page", strconv.Itoa(n))
	c.RawQuery = q.Encode()
	return c.String()
}

// sizeParams are the names under which forge asks for a page size.
var sizeParams = []string{"per_page", "limit"}

// setPageSize asks for pages of n records under every common name, unless
// the query already names a size.
func setPageSize(q url.Values, n int) {
	if n <= 0 {
		return
	}
	for _, k := range sizeParams {
		if q.Has(k) {
			return
		}
	}
	for _, k := range sizeParams {
		q.Set(k, strconv.Itoa(n))
	}
}

// WithPageSize is path asking for pages of n records under every common
// name (per_page, limit), unless it names a size already.
func WithPageSize(path string, n int) string {
	u, err := url.Parse(path)
	if err != nil {
		return path
	}
	q := u.Query()
	setPageSize(q, n)
	u.RawQuery = q.Encode()
	return u.String()
}

// PageSizeOf reads the page size a request URL asks for (0 for none).
func PageSizeOf(u *url.URL) int {
	for _, k := range sizeParams {
		if n, err := strconv.Atoi(u.Query().Get(k)); err == nil && n > 0 {
			return n
		}
	}
	return 0
}

// ListLen is how many records a list answer holds (0 when it is not one).
func ListLen(body []byte) int {
	items, _ := listItems(body)
	return len(items)
}

// keep yields the records of seq that match: a filter the service may not
// apply (the spec shows only the issue list's state) holds on the client
// too. A record dropped here shows the service ignored the filter, so its
// totals count other records: pages (when set) stops offering them.
func keep[T any](seq iter.Seq2[*T, error], pages *Pages, match func(*T) bool) iter.Seq2[*T, error] {
	return func(yield func(*T, error) bool) {
		for v, err := range seq {
			if err == nil && !match(v) {
				if pages != nil {
					pages.filtered = true
				}
				continue
			}
			if !yield(v, err) {
				return
			}
		}
	}
}
