package cmdcore

import (
	"context"
	"errors"
	"fmt"
	"testing"
)

type statusErr int

func (s statusErr) Error() string   { return fmt.Sprintf("HTTP %d", int(s)) }
func (s statusErr) HTTPStatus() int { return int(s) }

func TestExitCode(t *testing.T) {
	cases := []struct {
		name string
		err  error
		want int
	}{
		{"nil", nil, 0},
		{"plain", errors.New("boom"), 1},
		{"usage", UsageErrorf("missing --title"), 2},
		{"wrapped usage", fmt.Errorf("x: %w", UsageErrorf("bad")), 2},
		{"cobra unknown flag", errors.New("unknown flag: --bogus"), 2},
		{"auth", AuthErrorf("run forge auth login"), 4},
		{"http 401", fmt.Errorf("request: %w", statusErr(401)), 4},
		{"http 403", statusErr(403), 1},
		{"http 404", statusErr(404), 1},
		{"interrupted", fmt.Errorf("get: %w", context.Canceled), 130},
		{"explicit", &ExitError{Code: 1}, 1},
		{"silent", ErrSilent, 1},
	}
	for _, c := range cases {
		if got := ExitCode(c.err); got != c.want {
			t.Errorf("%s: ExitCode = %d, want %d", c.name, got, c.want)
		}
	}
	if ShouldPrint(ErrSilent) || ShouldPrint(&ExitError{Code: 1}) || !ShouldPrint(errors.New("x")) {
		t.Error("ShouldPrint wrong")
	}
}

func TestParseNumber(t *testing.T) {
	if n, err := ParseNumber("12", "issue number"); err != nil || n != 12 {
		t.Fatalf("12: %d %v", n, err)
	}
	for _, bad := range []string{"x", "-1", "0", "1.5", ""} {
		if _, err := ParseNumber(bad, "issue number"); ExitCode(err) != ExitUsage {
			t.Errorf("%q: %v", bad, err)
		}
	}
}
