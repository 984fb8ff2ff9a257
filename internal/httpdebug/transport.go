// Package httpdebug traces HTTP requests for --debug without ever showing a
// secret: credentials in headers and secret-named JSON fields are masked.
package httpdebug

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"sort"
	"strings"
	"sync"
	"time"
)

// maxBody is the largest JSON body the trace shows; larger and streamed
// bodies are summarised, never buffered.
const maxBody = 16 << 10

// Transport writes method, URL, headers, status and timing of each request
// to W, and JSON bodies up to 16 KiB.
type Transport struct {
	Base http.RoundTripper
	W    io.Writer
	mu   sync.Mutex
}

// Wrap returns base traced to w.
func Wrap(base http.RoundTripper, w io.Writer) http.RoundTripper {
	if base == nil {
		base = http.DefaultTransport
	}
	return &Transport{Base: base, W: w}
}

// RoundTrip implements http.RoundTripper.
func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "> %s %s\n", req.Method, req.URL.Redacted())
	writeHeaders(&b, "> ", req.Header)
	if body, ok := peekRequest(req); ok {
		b.WriteString(body)
	}
	start := time.Now()
	resp, err := t.Base.RoundTrip(req)
	elapsed := time.Since(start).Round(100 * time.Microsecond)
	if err != nil {
		fmt.Fprintf(&b, "! %s %s failed after %s: %v\n", req.Method, req.URL.Redacted(), elapsed, err)
	} else {
		fmt.Fprintf(&b, "< %s %s (%s)\n", resp.Proto, resp.Status, elapsed)
		writeHeaders(&b, "< ", resp.Header)
		if body, ok := peekResponse(resp); ok {
			b.WriteString(body)
		}
	}
	t.mu.Lock()
	io.WriteString(t.W, b.String()+"\n")
	t.mu.Unlock()
	return resp, err
}

// secretHeaders are shown as "****" (keeping an auth scheme word).
var secretHeaders = map[string]bool{
	"Authorization": true, "Proxy-Authorization": true, "X-Api-Key": true,
	"Cookie": true, "Set-Cookie": true, "X-Registry-Auth": true,
}

func writeHeaders(b *strings.Builder, prefix string, h http.Header) {
	keys := make([]string, 0, len(h))
	for k := range h {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		for _, v := range h[k] {
			fmt.Fprintf(b, "%s%s: %s\n", prefix, k, MaskHeader(k, v))
		}
	}
}

// MaskHeader hides a credential header's value; "token abc" becomes
// "token ****".
func MaskHeader(name, value string) string {
	if !secretHeaders[http.CanonicalHeaderKey(name)] {
		return value
	}
	if scheme, _, ok := strings.Cut(value, " "); ok && !strings.ContainsAny(scheme, "=;") {
		return scheme + " ****"
	}
	return "****"
}

func isJSON(h http.Header) bool {
	mt, _, err := mime.ParseMediaType(h.Get("Content-Type"))
	return err == nil && (mt == "application/json" || strings.HasSuffix(mt, "+json"))
}

func peekRequest(req *http.Request) (string, bool) {
	if req.Body == nil || req.GetBody == nil || !isJSON(req.Header) || req.ContentLength <= 0 || req.ContentLength > maxBody {
		return "", false
	}
	rc, err := req.GetBody()
	if err != nil {
		return "", false
	}
	defer rc.Close()
	data, err := io.ReadAll(rc)
	if err != nil {
		return "", false
	}
	return MaskJSON(data) + "\n", true
}

// peekResponse reads a small JSON response body for the trace and puts it
// back; event streams and blobs are left untouched.
func peekResponse(resp *http.Response) (string, bool) {
	if resp.Body == nil || !isJSON(resp.Header) || resp.ContentLength < 0 || resp.ContentLength > maxBody {
		return "", false
	}
	data, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	resp.Body = io.NopCloser(bytes.NewReader(data))
	if err != nil {
		return "", false
	}
	return MaskJSON(data) + "\n", true
}

// secretFields are JSON keys whose values never appear in a trace.
var secretFields = map[string]bool{
	"password": true, "old_password": true, "new_password": true, "temporary_password": true,
	"token": true, "access_token": true, "refresh_token": true, "agent_key": true, "api_key": true, "key_secret": true,
	"secret": true, "code": true, "otpauth_url": true, "qr_png_base64": true, "qr_base64": true,
}

// MaskJSON returns data with every secret-named field's value replaced by
// "****". Data that is not JSON is summarised by its size.
func MaskJSON(data []byte) string {
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		return fmt.Sprintf("(%d bytes, not JSON)", len(data))
	}
	out, err := json.Marshal(maskValue(v))
	if err != nil {
		return fmt.Sprintf("(%d bytes)", len(data))
	}
	return string(out)
}

func maskValue(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, val := range t {
			if secretFields[strings.ToLower(k)] && val != nil {
				t[k] = "****"
			} else {
				t[k] = maskValue(val)
			}
		}
	case []any:
		for i := range t {
			t[i] = maskValue(t[i])
		}
	}
	return v
}
