package client

import (
	"errors"
	"testing"
)

// TestWantsCommentField: only a 400 or 422 naming the comment field, or
// calling body unknown, makes the comment go again under "comment".
func TestWantsCommentField(t *testing.T) {
	for _, c := range []struct {
		status int
		msg    string
		want   bool
	}{
		{422, "Validation Failed: comment: missing_field", true},
		{400, "comment is required", true},
		{400, "json: unknown field \"body\"", true},
		{422, "Validation Failed: text: missing_field", false},
		{422, "body is too long (maximum is 65536 characters)", false},
		{400, "comments are locked", false},
		{403, "comment is required", false},
		{500, "comment is required", false},
	} {
		if got := wantsCommentField(&Error{StatusCode: c.status, Message: c.msg}); got != c.want {
			t.Errorf("%d %q: %v, want %v", c.status, c.msg, got, c.want)
		}
	}
	if wantsCommentField(errors.New("no answer")) || wantsCommentField(nil) {
		t.Error("an error without the service's answer sends it again")
	}
}
