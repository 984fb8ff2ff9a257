package api

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/url"
	"strings"

	"github.com/forgehq/forge/client"
)

// perPage is asked of every paginated request that does not choose its
// own page size: the fewer pages, the fewer round trips.
const perPage = "100"

// paginate fetches every page of a GET. Pages that are JSON arrays are
// joined into one array: streamed element by element to stdout when
// nothing filters them, gathered for --jq, --template or a terminal's
// indentation. Other pages (objects, text), and every page with -i, are
// printed one after the other as they come, like gh.
func paginate(ctx context.Context, c *client.Client, opts *apiOptions, req client.RawRequest) error {
	req.Path = withPerPage(req.Path)
	ios := opts.f.IOStreams
	p := newPrinter(opts)
	gather := opts.exporter.Enabled() || ios.IsStdoutTTY()
	var (
		all     []json.RawMessage // when gathering
		written int               // elements streamed so far
		joining bool              // the pages are arrays being joined
	)
	for first := true; req.Path != ""; first = false {
		resp, err := c.Send(ctx, req)
		if err != nil {
			return err
		}
		next := client.NextPage(resp)
		if resp.StatusCode/100 != 2 || opts.include || opts.silent {
			err = p.page(resp)
			resp.Body.Close()
			if err != nil {
				return err
			}
			req.Path = next
			continue
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			return readError(resp, err)
		}
		items, isArray := arrayItems(body)
		if first {
			joining = isArray
		}
		switch {
		case !joining || !isArray:
			// Not a list: print the page as it came.
			if err := writeOne(opts, body); err != nil {
				return err
			}
		case gather:
			all = append(all, items...)
		default:
			if err := streamItems(ios.Out, items, &written); err != nil {
				return err
			}
		}
		req.Path = next
	}
	switch {
	case !joining:
		return nil
	case gather:
		if all == nil {
			all = []json.RawMessage{}
		}
		b, err := json.Marshal(all)
		if err != nil {
			return err
		}
		return writeOne(opts, b)
	default:
		if written == 0 {
			_, err := io.WriteString(ios.Out, "[]\n")
			return err
		}
		_, err := io.WriteString(ios.Out, "\n]\n")
		return err
	}
}

// writeOne prints one JSON document, filtered or indented as for a single
// answer.
func writeOne(opts *apiOptions, body []byte) error {
	ios := opts.f.IOStreams
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

// streamItems writes a page's elements as part of one array, indented as
// a single answer would be: "[" before the first, "," between.
func streamItems(w io.Writer, items []json.RawMessage, written *int) error {
	var b bytes.Buffer
	for _, it := range items {
		if *written == 0 {
			b.WriteString("[\n  ")
		} else {
			b.WriteString(",\n  ")
		}
		if json.Indent(&b, it, "  ", "  ") != nil {
			b.Write(it)
		}
		*written++
	}
	_, err := w.Write(b.Bytes())
	return err
}

// arrayItems splits a JSON array into its elements.
func arrayItems(body []byte) ([]json.RawMessage, bool) {
	t := bytes.TrimSpace(body)
	if len(t) == 0 || t[0] != '[' {
		return nil, false
	}
	var items []json.RawMessage
	if json.Unmarshal(t, &items) != nil {
		return nil, false
	}
	return items, true
}

// withPerPage asks for the largest pages unless the path sets per_page.
func withPerPage(path string) string {
	u, err := url.Parse(path)
	if err != nil || u.Query().Has("per_page") {
		return path
	}
	sep := "?"
	if strings.Contains(path, "?") {
		sep = "&"
	}
	return path + sep + "per_page=" + perPage
}
