package httpdebug

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestTraceMasksSecrets(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Set-Cookie", "session=s3cr3tcookie")
		io.WriteString(w, `{"token":"tok_SECRETVALUE","user":{"login":"alice"},"secret":"JBSWY3DPEHPK3PXP"}`)
	}))
	defer srv.Close()
	var trace bytes.Buffer
	c := &http.Client{Transport: Wrap(nil, &trace)}
	body := `{"username":"alice","password":"hunter2hunter2","code":"123456"}`
	req, _ := http.NewRequest("POST", srv.URL+"/api/v2/auth/login", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "token tok_SECRETVALUE")
	req.Header.Set("X-API-Key", "agk_SECRETKEY")
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(resp.Body)
	if !strings.Contains(string(got), "tok_SECRETVALUE") {
		t.Fatal("the caller must still get the real body")
	}
	out := trace.String()
	for _, secret := range []string{"tok_SECRETVALUE", "hunter2", "123456", "agk_SECRETKEY", "s3cr3tcookie", "JBSWY3DP"} {
		if strings.Contains(out, secret) {
			t.Errorf("trace shows secret %q:\n%s", secret, out)
		}
	}
	for _, want := range []string{"> POST " + srv.URL + "/api/v2/auth/login", "Authorization: token ****", "X-Api-Key: ****", "< HTTP/1.1 200 OK", `"login":"alice"`, `"username":"alice"`} {
		if !strings.Contains(out, want) {
			t.Errorf("trace lacks %q:\n%s", want, out)
		}
	}
}
