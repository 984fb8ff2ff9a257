package api

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"

	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/cmd/internal/listing"
)

// perPage is asked of every paginated request that does not choose its
// own page size: the fewer pages, the fewer round trips.
const perPage = 100

// paginate fetches every page of a GET. Pages that are JSON arrays are
// joined into one array — streamed page by page to stdout when nothing
// filters them, gathered for --jq, --template or a terminal's indentation.
// Other pages (objects, text), and every page with -i or --silent, are
// printed one after the other as they come, like gh.
//
// Joining splices each page's elements, as the service wrote them, into
// one array laid out the way the service lays out a page, so the output of
// a service that indents its pages is byte for byte what it would send as
// one page; nothing is decoded, which keeps 10,000 records fast.
//
// The pages are read as the list commands read them (client.Pager: Link,
// page numbers with a total, a service that does not page); when forge
// cannot tell whether more exist, it says so on stderr.
func paginate(ctx context.Context, c *client.Client, opts *apiOptions, req client.RawRequest) error {
	req.Path = client.WithPageSize(req.Path, perPage)
	ios := opts.IO
	p := newPrinter(opts)
	var gathered bytes.Buffer
	out := ios.Out
	if opts.exporter.Enabled() || ios.IsStdoutTTY() {
		out = &gathered
	}
	j := &joiner{w: out}
	joining := false // the pages are arrays being joined
	pager := client.NewPager(client.PageSizeOf(mustParse(req.Path)))
	pages := 0 // answers read as pages (2xx)
	seen := map[string]bool{}
	for req.Path != "" && !seen[req.Path] {
		seen[req.Path] = true // a page linking to itself must not loop
		resp, err := c.Send(ctx, req)
		if err != nil {
			return err
		}
		if resp.StatusCode == http.StatusNotFound && pager.Gone() {
			resp.Body.Close() // 404 past the last page: the list ended
			break
		}
		if resp.StatusCode/100 != 2 {
			err = p.page(resp) // an error answer, as it came
			resp.Body.Close()
			if err != nil {
				return err
			}
			req.Path, _ = pager.Next(resp.Request.URL, resp.Header, nil, 0)
			continue
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			return readError(resp, err)
		}
		next, use := pager.Next(resp.Request.URL, resp.Header, body, client.ListLen(body))
		req.Path = next
		if !use {
			continue // the page before, again: the service ignores page numbers
		}
		inner, isArray := arrayInner(body)
		if pages++; pages == 1 {
			joining = isArray && !opts.include && !opts.silent
		}
		switch {
		case opts.include || opts.silent:
			resp.Body = io.NopCloser(bytes.NewReader(body))
			err = p.page(resp)
		case joining && isArray:
			err = j.add(inner)
		default:
			err = writeOne(opts, body) // not a list: the page as it came
		}
		if err != nil {
			return err
		}
	}
	if !joining {
		listing.NoteUnsure(ios, pager.Unsure(), pager.Read(), "records")
		return nil
	}
	if err := j.close(); err != nil {
		return err
	}
	listing.NoteUnsure(ios, pager.Unsure(), pager.Read(), "records")
	if out == &gathered {
		return writeOne(opts, gathered.Bytes())
	}
	return nil
}

// mustParse parses a request path; a path that does not parse has no
// page size to read (the request then fails with the client's error).
func mustParse(path string) *url.URL {
	u, err := url.Parse(path)
	if err != nil {
		return &url.URL{}
	}
	return u
}

// writeOne prints one JSON document, filtered or indented as for a single
// answer.
func writeOne(opts *apiOptions, body []byte) error {
	ios := opts.IO
	switch {
	case opts.exporter.Enabled():
		return writeFiltered(opts, body)
	case ios.IsStdoutTTY():
		writePretty(ios.Out, body)
		return nil
	}
	_, err := ios.Out.Write(body)
	return err
}

// joiner writes the elements of several arrays as one array.
type joiner struct {
	w       io.Writer
	started bool
}

// add writes the inside of one array (its elements and the commas between
// them, without the brackets).
func (j *joiner) add(inner []byte) error {
	if len(inner) == 0 {
		return nil
	}
	sep := ",\n  "
	if !j.started {
		sep, j.started = "[\n  ", true
	}
	if _, err := io.WriteString(j.w, sep); err != nil {
		return err
	}
	_, err := j.w.Write(inner)
	return err
}

func (j *joiner) close() error {
	end := "\n]\n"
	if !j.started {
		end = "[]\n"
	}
	_, err := io.WriteString(j.w, end)
	return err
}

// arrayInner returns what lies between the brackets of a JSON array,
// trimmed; false when body is not a valid JSON array.
func arrayInner(body []byte) ([]byte, bool) {
	t := bytes.TrimSpace(body)
	if len(t) < 2 || t[0] != '[' || t[len(t)-1] != ']' || !json.Valid(t) {
		return nil, false
	}
	return bytes.TrimSpace(t[1 : len(t)-1]), true
}
