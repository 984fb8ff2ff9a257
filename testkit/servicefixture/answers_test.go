package servicefixture_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/forgehq/forge/testkit/clitest"
	"github.com/forgehq/forge/testkit/servicefixture"
)

// TestValidationReasonInErrors: a 422 whose reason is only in GitHub's
// errors array: forge prints the reason, not only "Validation Failed".
func TestValidationReasonInErrors(t *testing.T) {
	_, h := against(t, servicefixture.Options{})
	r := h.Run(clitest.Run{}, "issue", "create", "--title", strings.Repeat("long ", 60), "--body", "x")
	if r.Code != 1 || !strings.Contains(r.Err, "Validation Failed: title is too long (maximum is 256 characters)") {
		t.Errorf("exit %d, want 1 giving the reason\n%s", r.Code, r.Output())
	}
	_, h = against(t, servicefixture.Options{CommentField: "text"})
	r = h.Run(clitest.Run{}, "issue", "comment", "5", "--body", "hello")
	if r.Code != 1 || !strings.Contains(r.Err, "Validation Failed: text: missing_field") {
		t.Errorf("exit %d, want 1 naming the field\n%s", r.Code, r.Output())
	}
}

// TestCommentTextField: a service reading a comment's text from
// "comment" gets it; one that stores a comment empty (its text read from a
// field forge does not send) is an error saying so, not a success.
func TestCommentTextField(t *testing.T) {
	_, h := against(t, servicefixture.Options{CommentField: "comment"})
	r := h.Run(clitest.Run{}, "issue", "comment", "5", "--body", "hello")
	if r.Code != 0 || !strings.Contains(r.Err, "Commented on issue #5") {
		t.Errorf("a service reading comment: exit %d\n%s", r.Code, r.Output())
	}
	_, h = against(t, servicefixture.Options{CommentField: "text", StoreEmptyComments: true})
	r = h.Run(clitest.Run{}, "issue", "comment", "5", "--body", "hello")
	if r.Code != 1 || !strings.Contains(r.Err, "stored the comment with no text") {
		t.Errorf("a service storing an empty comment: exit %d\n%s", r.Code, r.Output())
	}
}

// TestCommentSentOnce: a comment's text goes under one field, so a
// comment of 150 KiB fits the fixture's 200 KiB request limit (sent under
// both body and comment it was 300 KiB, refused with a 413), whichever
// field the service reads.
func TestCommentSentOnce(t *testing.T) {
	for _, field := range []string{"", "comment"} {
		_, h := against(t, servicefixture.Options{CommentField: field})
		r := h.Run(clitest.Run{}, "issue", "comment", "5", "--body", strings.Repeat("x", 150<<10))
		if r.Code != 0 || !strings.Contains(r.Err, "Commented on issue #5") {
			t.Errorf("a service reading %q: exit %d\n%s", field, r.Code, r.Err)
		}
	}
}

// TestConflictWhenStateHolds: a service answering 409 to disabling a
// disabled account, enabling an enabled one or turning 2FA off when it is
// off: the state asked for holds, forge says so on stderr and exits 0
// (forge help exit-codes); a 409 while the state read back does not hold
// is the service's conflict, exit 1.
func TestConflictWhenStateHolds(t *testing.T) {
	_, h := against(t, servicefixture.Options{ConflictWhenHeld: true})
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"admin", "user", "disable", "user002"}, "user002 was already disabled"},
		{[]string{"admin", "user", "enable", "user003"}, "user003 was already enabled"},
		{[]string{"auth", "2fa", "disable", "--code", servicefixture.Code}, "already off"},
	} {
		r := h.Run(clitest.Run{}, c.args...)
		if r.Code != 0 || !strings.Contains(r.Err, c.want) {
			t.Errorf("forge %s: exit %d, want 0 saying %q\n%s", strings.Join(c.args, " "), r.Code, c.want, r.Output())
		}
	}
	// A 409 of another kind: the state read back does not hold, so the
	// service's conflict is the answer, exit 1.
	const other = "the account owns running jobs: cancel them first"
	_, h = against(t, servicefixture.Options{ConflictOther: other})
	for _, args := range [][]string{{"admin", "user", "disable", "user003"}, {"admin", "user", "enable", "user002"}, {"auth", "2fa", "disable", "--code", servicefixture.Code}} {
		r := h.Run(clitest.Run{}, args...)
		if r.Code != 1 || !strings.Contains(r.Err, "HTTP 409: "+other) || strings.Contains(r.Err, "already") {
			t.Errorf("forge %s: exit %d, want 1 giving the conflict\n%s", strings.Join(args, " "), r.Code, r.Output())
		}
	}
	_, h = against(t, servicefixture.Options{})
	if r := h.Run(clitest.Run{}, "admin", "user", "disable", "user003"); r.Code != 0 || !strings.Contains(r.Err, "Disabled user003") {
		t.Errorf("a change: exit %d\n%s", r.Code, r.Output())
	}
}

// TestTooLargeNamesNoLimit: a 413 without words, for a comment of 206 KiB
// (the service's own limit is 200 KiB): forge says the service refused
// its size and names no limit it does not know.
func TestTooLargeNamesNoLimit(t *testing.T) {
	_, h := against(t, servicefixture.Options{})
	r := h.Run(clitest.Run{}, "issue", "comment", "5", "--body", strings.Repeat("x", 206<<10))
	if r.Code != 1 || !strings.Contains(r.Err, "HTTP 413: the request body is larger than the service takes; this one was 206") || strings.Contains(r.Err, "limit") {
		t.Errorf("exit %d\n%s", r.Code, r.Err)
	}
}

// TestRateLimit403SaysWhen: GitHub's 403 for a used-up rate limit, its
// reset in X-RateLimit-Reset only: forge says when to try again.
func TestRateLimit403SaysWhen(t *testing.T) {
	_, h := against(t, servicefixture.Options{RateLimited: true})
	r := h.Run(clitest.Run{}, "issue", "list")
	if r.Code != 1 || !regexp.MustCompile(`API rate limit exceeded for 127\.0\.0\.1\..*; retry after 1[45]m[0-9]+s`).MatchString(r.Err) {
		t.Errorf("exit %d\n%s", r.Code, r.Err)
	}
}
