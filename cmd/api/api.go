// Package api implements `forge api`: an authenticated request to any
// endpoint of the REST API, after `gh api`.
package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"sort"
	"strings"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/app/output"
	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/internal/iostreams"
	"github.com/forgehq/forge/internal/text"
	"github.com/spf13/cobra"
)

type apiOptions struct {
	cmdutil.Deps
	exporter  *output.Exporter
	path      string
	method    string
	rawFields []string
	fields    []string
	headers   []string
	input     string
	paginate  bool
	include   bool
	silent    bool
	repo      string
}

// NewCmd returns `forge api`.
func NewCmd(f *cmdutil.Factory) *cobra.Command { return newAPICmd(f, nil) }

func newAPICmd(f *cmdutil.Factory, runF func(context.Context, *apiOptions) error) *cobra.Command {
	opts := &apiOptions{Deps: f.Deps()}
	runF = cmdcore.Seam(runF, runAPI)
	cmd := &cobra.Command{
		Use:   "api PATH",
		Short: "Make an authenticated request to the REST API",
		Long: `Make an authenticated request to the REST API and print the answer. PATH is
relative to the profile's base URL (…/api/v2), as in repos/alice/demo; the
placeholders {owner} and {repo} are filled from -R (else FORGE_REPO or the
git remote here); a host in -R sends the request to that server's
profile, as for every command.

The method is GET, or POST when fields or --input are given (except with
--paginate, which is always GET); -X sets it.
Fields build a JSON body:
  -f key=value   a string
  -F key=value   a typed value: true, false, null and numbers become JSON's,
                 @FILE is the file's content (@- standard input), anything
                 else a string
  key[]=v adds v to a list, key[sub]=v sets a key of an object.
With GET (or with --input, which gives the body) the fields go into the
query string instead.

The answer's body goes to stdout as the service sent it; on a terminal,
JSON is indented and control characters are shown (ESC as ^[), not sent.
-i shows the status line and headers first. An answer outside 2xx still
prints its body, then forge exits 1 (4 for 401, like every forge command).
--paginate follows Link rel="next" and joins pages that are JSON arrays
into one array; --jq and --template apply to the whole of it.`,
		Example: `  forge api me
  forge api repos/{owner}/{repo}/issues --paginate --jq '.[].title'
  forge api repos/alice/demo/issues -f title="Crash on start" -f body="Steps: ..."
  forge api -X PATCH repos/alice/demo -F private=true
  forge api admin/invites -f username=bob -f email=bob@example.com -F role=user
  forge api repos/alice/demo/issues -F body=@notes.md -f title=Notes
  forge api -X POST repos/alice/demo/issues --input issue.json
  forge api -i me`,
		Args: cmdcore.ExactArgs(1, "an API path, such as repos/OWNER/REPO"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.path = args[0]
			if !cmd.Flags().Changed("method") {
				opts.method = ""
			}
			return runF(cmd.Context(), opts)
		},
	}
	fl := cmd.Flags()
	fl.StringVarP(&opts.method, "method", "X", "GET", "The HTTP `method`")
	fl.StringArrayVarP(&opts.rawFields, "raw-field", "f", nil, "Add a string field, `key=value`")
	fl.StringArrayVarP(&opts.fields, "field", "F", nil, "Add a typed field, `key=value` (true, false, null, numbers, @file)")
	fl.StringArrayVarP(&opts.headers, "header", "H", nil, "Add a request header, `'Name: value'`")
	cmdcore.PathOrDashFlag(cmd, &opts.input, "input", "", "", "Send the `file`'s content as the request body (- for standard input)")
	fl.BoolVar(&opts.paginate, "paginate", false, "Fetch every page (GET), joining JSON arrays into one")
	fl.BoolVarP(&opts.include, "include", "i", false, "Print the HTTP status line and headers before the body")
	fl.BoolVar(&opts.silent, "silent", false, "Print nothing of the answer's body")
	cmdutil.AddRepoFlag(cmd, &opts.repo)
	opts.exporter = output.AddJSONFlags(cmd)
	_ = fl.MarkHidden("json") // the answer is JSON already; --jq and --template filter it
	return cmd
}

func runAPI(ctx context.Context, opts *apiOptions) error {
	if err := opts.exporter.Validate(); err != nil {
		return err
	}
	defer sanitizeTerminal(opts.IO)()
	req, err := buildRequest(ctx, opts)
	if err != nil {
		return err
	}
	c, err := opts.REST()
	if err != nil {
		return err
	}
	req.Path = trimBase(req.Path, c)
	if opts.paginate {
		return paginate(ctx, c, opts, req)
	}
	resp, err := c.Send(ctx, req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	return newPrinter(opts).page(resp)
}

// sanitizeTerminal makes everything written to stdout, when it is a
// terminal, go through text.Writer: the answer is the server's, headers
// and all. Piped, stdout gets the exact bytes. The returned func flushes
// and restores stdout.
func sanitizeTerminal(ios *iostreams.IOStreams) func() {
	if !ios.IsStdoutTTY() {
		return func() {}
	}
	out := ios.Out
	w := text.NewWriter(out)
	ios.Out = w
	return func() {
		w.Flush()
		ios.Out = out
	}
}

// buildRequest turns the flags into a request; every mistake in them is a
// usage error before anything is sent.
func buildRequest(ctx context.Context, opts *apiOptions) (client.RawRequest, error) {
	ios := opts.IO
	expand, err := placeholders(ctx, opts.Deps, opts.repo)
	if err != nil {
		return client.RawRequest{}, err
	}
	path, err := expand(strings.TrimSpace(opts.path))
	if err != nil {
		return client.RawRequest{}, err
	}
	if path == "" {
		return client.RawRequest{}, cmdcore.UsageErrorf("give an API path, such as repos/OWNER/REPO")
	}
	if strings.Contains(path, "://") && !strings.HasPrefix(path, "http://") && !strings.HasPrefix(path, "https://") {
		return client.RawRequest{}, cmdcore.UsageErrorf("%q: give a path relative to the base URL, or an http(s) URL", opts.path)
	}
	if opts.input == "-" && hasStdinField(opts.fields) {
		return client.RawRequest{}, cmdcore.UsageErrorf("--input - and a field @- both want standard input")
	}
	fields, err := parseFields(opts.rawFields, opts.fields, ios.In, expand)
	if err != nil {
		return client.RawRequest{}, err
	}
	header, err := parseHeaders(opts.headers)
	if err != nil {
		return client.RawRequest{}, err
	}
	req := client.RawRequest{Method: strings.ToUpper(strings.TrimSpace(opts.method)), Header: header}
	if req.Method == "" {
		req.Method = http.MethodGet
		if (len(fields) > 0 || opts.input != "") && !opts.paginate {
			req.Method = http.MethodPost
		}
	}
	if strings.ContainsAny(req.Method, " \t/:") {
		return client.RawRequest{}, cmdcore.UsageErrorf("-X %q is not an HTTP method", opts.method)
	}
	if opts.paginate && req.Method != http.MethodGet {
		return client.RawRequest{}, cmdcore.UsageErrorf("--paginate follows pages of a GET request; drop -X %s or --paginate", req.Method)
	}
	inQuery := opts.input != "" || req.Method == http.MethodGet || req.Method == http.MethodHead
	switch {
	case opts.input != "":
		if req.Body, err = readFileArg(opts.input, ios.In); err != nil {
			return client.RawRequest{}, err
		}
		if req.Body == nil {
			req.Body = []byte{}
		}
		if req.Header.Get("Content-Type") == "" {
			req.Header.Set("Content-Type", "application/json")
		}
	case len(fields) > 0 && !inQuery:
		if req.Body, err = jsonBody(fields); err != nil {
			return client.RawRequest{}, err
		}
	}
	if inQuery {
		if path, err = addQuery(path, fields); err != nil {
			return client.RawRequest{}, err
		}
	}
	req.Path = path
	return req, nil
}

// parseHeaders reads -H 'Name: value' flags.
func parseHeaders(flags []string) (http.Header, error) {
	h := http.Header{}
	for _, f := range flags {
		name, value, ok := strings.Cut(f, ":")
		name = strings.TrimSpace(name)
		if !ok || name == "" || strings.ContainsAny(name, " \t") {
			return nil, cmdcore.UsageErrorf("-H %q: give a header as 'Name: value'", f)
		}
		h.Add(name, strings.TrimSpace(value))
	}
	return h, nil
}

// jsonBody encodes the fields as a JSON object, leaving <, > and & as
// they are.
func jsonBody(fields []field) ([]byte, error) {
	body, err := bodyOf(fields)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(body); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}

func hasStdinField(fields []string) bool {
	for _, f := range fields {
		if _, v, _ := strings.Cut(f, "="); v == "@-" {
			return true
		}
	}
	return false
}

// placeholders returns a function that fills {owner} and {repo} from the
// current repository. With -R the repository is resolved at once (its
// host picks the server the request goes to); otherwise only if a
// placeholder is used.
func placeholders(ctx context.Context, d cmdutil.Deps, flag string) (func(string) (string, error), error) {
	var repo *client.RepoName
	if flag != "" {
		r, err := d.BaseRepo(ctx, flag)
		if err != nil {
			return nil, err
		}
		repo = &r
	}
	return func(s string) (string, error) {
		if !strings.Contains(s, "{owner}") && !strings.Contains(s, "{repo}") {
			return s, nil
		}
		if repo == nil {
			r, err := d.BaseRepo(ctx, "")
			if err != nil {
				return "", fmt.Errorf("filling {owner}/{repo}: %w", err)
			}
			repo = &r
		}
		return strings.NewReplacer("{owner}", url.PathEscape(repo.Owner), "{repo}", url.PathEscape(repo.Name)).Replace(s), nil
	}, nil
}

// trimBase drops the base URL's path from a PATH that repeats it, so
// "/api/v2/me" means "me" as the user meant.
func trimBase(path string, c *client.Client) string {
	if strings.Contains(path, "://") {
		return path
	}
	u, err := url.Parse(c.BaseURL())
	if err != nil || strings.Trim(u.Path, "/") == "" {
		return path
	}
	base := strings.Trim(u.Path, "/") + "/"
	if p := strings.TrimLeft(path, "/"); strings.HasPrefix(p, base) {
		return p[len(base):]
	}
	return path
}

// statusError is an answer outside 2xx whose body has been printed: the
// error line names the status and the service's message, and HTTPStatus
// makes a 401 exit 4, as everywhere in forge.
type statusError struct {
	status  int
	message string
}

func (e *statusError) Error() string {
	if e.message != "" {
		return fmt.Sprintf("HTTP %d: %s", e.status, e.message)
	}
	return fmt.Sprintf("HTTP %d: %s", e.status, http.StatusText(e.status))
}

func (e *statusError) HTTPStatus() int { return e.status }

// printer writes answers to stdout.
type printer struct {
	opts *apiOptions
}

func newPrinter(opts *apiOptions) *printer { return &printer{opts: opts} }

// page prints one answer: headers with -i, then the body — through
// --jq/--template on success, indented on a terminal, else as sent.
func (p *printer) page(resp *http.Response) error {
	ios := p.opts.IO
	if p.opts.include {
		writeHead(ios.Out, resp)
	}
	if resp.StatusCode/100 != 2 {
		return p.failure(resp)
	}
	switch {
	case resp.Request.Method == http.MethodHead:
	case p.opts.exporter.Enabled():
		body, err := io.ReadAll(resp.Body)
		if err != nil {
			return readError(resp, err)
		}
		if !p.opts.silent {
			return writeFiltered(p.opts, body)
		}
	case p.opts.silent:
		if _, err := io.Copy(io.Discard, resp.Body); err != nil {
			return readError(resp, err)
		}
	case ios.IsStdoutTTY() && isJSON(resp.Header):
		body, err := io.ReadAll(resp.Body)
		if err != nil {
			return readError(resp, err)
		}
		writePretty(ios.Out, body)
	default:
		if _, err := io.Copy(ios.Out, resp.Body); err != nil {
			return readError(resp, err)
		}
	}
	return nil
}

// failure prints the body of an answer outside 2xx (--jq and --template
// are for answers that succeeded, --silent silences it too) and returns
// the error naming its status and the service's message.
func (p *printer) failure(resp *http.Response) error {
	ios := p.opts.IO
	head, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return readError(resp, err)
	}
	if !p.opts.silent && resp.Request.Method != http.MethodHead {
		if ios.IsStdoutTTY() && isJSON(resp.Header) {
			writePretty(ios.Out, head)
		} else {
			ios.Out.Write(head)
			io.Copy(ios.Out, resp.Body)
		}
	}
	return &statusError{status: resp.StatusCode, message: messageOf(head)}
}

func readError(resp *http.Response, err error) error {
	if errors.Is(err, context.Canceled) {
		return err
	}
	return fmt.Errorf("reading the answer of %s %s: %w", resp.Request.Method, resp.Request.URL.Redacted(), err)
}

// messageOf finds the service's message in an error body: {"error": "..."}
// as the spec has it, or {"message": "..."}.
func messageOf(body []byte) string {
	var v struct {
		Error   any    `json:"error"`
		Message string `json:"message"`
	}
	if json.Unmarshal(body, &v) != nil {
		return ""
	}
	if s, ok := v.Error.(string); ok && s != "" {
		return s
	}
	return v.Message
}

// writeHead prints the status line and the headers, sorted, like curl -i.
func writeHead(w io.Writer, resp *http.Response) {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s\n", resp.Proto, resp.Status)
	names := make([]string, 0, len(resp.Header))
	for k := range resp.Header {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		for _, v := range resp.Header[k] {
			fmt.Fprintf(&b, "%s: %s\n", k, v)
		}
	}
	b.WriteString("\n")
	io.WriteString(w, b.String())
}

func isJSON(h http.Header) bool {
	ct := strings.ToLower(h.Get("Content-Type"))
	return strings.Contains(ct, "json")
}

// writePretty indents JSON for a terminal; anything else goes out as is.
func writePretty(w io.Writer, body []byte) {
	var buf bytes.Buffer
	if json.Indent(&buf, body, "", "  ") != nil {
		w.Write(body)
		return
	}
	buf.WriteByte('\n')
	w.Write(buf.Bytes())
}

// writeFiltered runs --jq or --template over a JSON answer.
func writeFiltered(opts *apiOptions, body []byte) error {
	if !json.Valid(body) {
		return fmt.Errorf("the answer is not JSON, so --jq and --template cannot read it; drop them to see it")
	}
	return opts.exporter.Write(opts.IO, json.RawMessage(body))
}
