package servicefixture_test

import (
	"strings"
	"testing"

	"github.com/forgehq/forge/testkit/clitest"
	"github.com/forgehq/forge/testkit/servicefixture"
)

var styles = map[string]servicefixture.Paging{
	"link-absolute":   servicefixture.LinkAbsolute,
	"link-relative":   servicefixture.LinkRelative,
	"page-per_page":   servicefixture.PagePerPage,
	"page-limit":      servicefixture.PageLimit,
	"cursor":          servicefixture.Cursor,
	"no-paging":       servicefixture.NoPaging,
	"fixed-20-a-page": servicefixture.FixedPages,
	"404-past-last":   servicefixture.NotFoundPast,
}

func against(t *testing.T, o servicefixture.Options) (*servicefixture.Server, *clitest.Harness) {
	s := servicefixture.New(t, o)
	h := clitest.Against(t, s.BaseURL, s.Token)
	h.Env["FORGE_REPO"] = "alice/app"
	return s, h
}

func lines(s string) int { return len(strings.Split(strings.TrimSpace(s), "\n")) }

// TestListsGetEveryRow: every list command returns every row it was asked
// for, whatever way the service pages, and says nothing is missing.
func TestListsGetEveryRow(t *testing.T) {
	for name, p := range styles {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			_, h := against(t, servicefixture.Options{Paging: p})
			for _, c := range []struct {
				want int
				args []string
			}{
				{100, []string{"issue", "list", "-L", "100", "--state", "all"}},
				{120, []string{"issue", "list", "--paginate", "--state", "all"}},
				{103, []string{"issue", "list", "--paginate"}},
				{45, []string{"repo", "list", "-L", "100"}},
				{45, []string{"repo", "list", "--paginate"}},
				{55, []string{"admin", "user", "list", "--paginate"}},
				{55, []string{"admin", "user", "list"}},
				{30, []string{"admin", "user", "list", "-L", "30"}},
			} {
				r := h.Run(clitest.Run{}, c.args...)
				if r.Code != 0 || lines(r.Out) != c.want || r.Err != "" {
					t.Errorf("forge %s: exit %d, %d rows, want %d; stderr %q", strings.Join(c.args, " "), r.Code, lines(r.Out), c.want, r.Err)
				}
			}
			r := h.Run(clitest.Run{}, "api", "--paginate", "repos/alice/app/issues?state=all", "--jq", "length")
			if r.Code != 0 || strings.TrimSpace(r.Out) != "120" {
				t.Errorf("forge api --paginate: exit %d, %q rows, want 120; stderr %q", r.Code, r.Out, r.Err)
			}
		})
	}
}

// TestListTotals: on a terminal, a list cut by its limit gives the real
// total, from X-Total-Count or the Link last page.
func TestListTotals(t *testing.T) {
	for name, c := range map[string]struct {
		p    servicefixture.Paging
		want string
	}{
		"link-last":     {servicefixture.LinkAbsolute, "Showing 2 of 103 open issues"},
		"x-total-count": {servicefixture.PageLimit, "Showing 2 of 103 open issues"},
		"no-total":      {servicefixture.PagePerPage, "Showing the first 2 open issues"},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			_, h := against(t, servicefixture.Options{Paging: c.p})
			r := h.Run(clitest.Run{TTY: true}, "issue", "list", "-L", "2")
			if r.Code != 0 || !strings.Contains(r.Out+r.Err, c.want) {
				t.Errorf("exit %d; want %q in\n%s", r.Code, c.want, r.Output())
			}
		})
	}
}

// TestCannotTellSaysSo: a service that answers every page with its first
// 20 rows and says nothing of more: forge says on stderr that it cannot
// tell, piped too.
func TestCannotTellSaysSo(t *testing.T) {
	_, h := against(t, servicefixture.Options{Paging: servicefixture.FirstPageOnly})
	for _, args := range [][]string{{"issue", "list", "--paginate"}, {"repo", "list", "-L", "30"}, {"api", "--paginate", "repos/alice/app/issues"}} {
		r := h.Run(clitest.Run{}, args...)
		if !strings.Contains(r.Err, "cannot tell") {
			t.Errorf("forge %s: exit %d, stderr %q; want it to say it cannot tell whether more exist", strings.Join(args, " "), r.Code, r.Err)
		}
	}
	// A list shorter than the page is whole: nothing to say.
	r := h.Run(clitest.Run{}, "pr", "list")
	if r.Err != "" {
		t.Errorf("pr list: stderr %q", r.Err)
	}
}

// TestAPIPaginateIncludeReadsEveryPage: forge api --paginate -i prints
// every page of a service paging by page + limit (with headers), not only
// the first.
func TestAPIPaginateIncludeReadsEveryPage(t *testing.T) {
	_, h := against(t, servicefixture.Options{Paging: servicefixture.PageLimit})
	r := h.Run(clitest.Run{}, "api", "--paginate", "-i", "repos/alice/app/issues?state=all")
	if n := strings.Count(r.Out, "X-Total-Count: 120"); r.Code != 0 || n != 3 {
		t.Errorf("exit %d, %d pages, want 3 (120 issues, 50 a page)\n%s", r.Code, n, r.Err)
	}
}

// TestNotFoundPastTheLastPage: a service paging by number that answers 404
// past its last page (60 users, 120 issues: full pages of 20 to the end):
// every list keeps the records it read and exits 0, quietly when forge
// guessed the page; when the service had announced the page (a Link),
// forge says on stderr that it cannot tell.
func TestNotFoundPastTheLastPage(t *testing.T) {
	_, h := against(t, servicefixture.Options{Paging: servicefixture.NotFoundPast, Users: 60})
	for _, c := range []struct {
		want int
		args []string
	}{
		{120, []string{"issue", "list", "--paginate", "--state", "all"}},
		{60, []string{"admin", "user", "list"}},
		{60, []string{"admin", "user", "list", "--paginate"}},
		{40, []string{"admin", "user", "list", "-L", "40"}},
	} {
		r := h.Run(clitest.Run{}, c.args...)
		if r.Code != 0 || lines(r.Out) != c.want || r.Err != "" {
			t.Errorf("forge %s: exit %d, %d rows, want %d; stderr %q", strings.Join(c.args, " "), r.Code, lines(r.Out), c.want, r.Err)
		}
	}
	r := h.Run(clitest.Run{}, "api", "--paginate", "repos/alice/app/issues?state=all", "--jq", "length")
	if r.Code != 0 || strings.TrimSpace(r.Out) != "120" || r.Err != "" {
		t.Errorf("forge api --paginate: exit %d, %q rows, want 120; stderr %q", r.Code, r.Out, r.Err)
	}
	r = h.Run(clitest.Run{TTY: true}, "admin", "user", "list", "-L", "60")
	if r.Code != 0 || strings.Contains(r.Out+r.Err, "for more") || !strings.Contains(r.Out, "Showing 60 accounts\n") {
		t.Errorf("a list read whole says there is more: exit %d\n%s", r.Code, r.Output())
	}

	_, h = against(t, servicefixture.Options{Paging: servicefixture.LinkNotFound, Users: 60})
	for _, args := range [][]string{{"admin", "user", "list"}, {"api", "--paginate", "admin/users", "--jq", "length"}} {
		r := h.Run(clitest.Run{}, args...)
		if r.Code != 0 || !strings.Contains(r.Err, "cannot tell if more") || !strings.Contains(r.Err, "404") {
			t.Errorf("forge %s: exit %d, stderr %q; want exit 0 saying it cannot tell", strings.Join(args, " "), r.Code, r.Err)
		}
	}
	if r := h.Run(clitest.Run{}, "admin", "user", "list"); lines(r.Out) != 60 {
		t.Errorf("admin user list: %d rows, want 60", lines(r.Out))
	}
}
