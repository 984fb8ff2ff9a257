package issue_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/forgehq/forge/refserver"
	"github.com/forgehq/forge/testkit/clitest"
)

// BenchmarkListJSON10000 is `forge issue list --limit 10000 --json number`
// over 10,000 issues: 100 pages from a reference server on loopback,
// in-process. bench/README.md has the side-by-side with curl.
//
//	go test ./cmd/issue -run '^$' -bench ListJSON -benchmem -benchtime 5x
func BenchmarkListJSON10000(b *testing.B) {
	h := clitest.New(b)
	h.LoginAs("alice")
	if _, err := h.Srv.CreateRepo("alice", "big", refserver.RepoOptions{}); err != nil {
		b.Fatal(err)
	}
	for i := 1; i <= 10000; i++ {
		if _, err := h.Srv.CreateIssue("alice/big", "", fmt.Sprintf("Issue %d", i), ""); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	for b.Loop() {
		r := h.Run(clitest.Run{}, "issue", "list", "-R", "alice/big", "--limit", "10000", "--json", "number")
		if r.Code != 0 || strings.Count(r.Out, `"number"`) != 10000 {
			b.Fatalf("exit %d, %d numbers\n%s", r.Code, strings.Count(r.Out, `"number"`), r.Err)
		}
	}
}
