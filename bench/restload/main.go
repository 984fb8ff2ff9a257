// Command restload runs a reference server seeded for load tests: user
// alice with repository alice/app holding -issues issues. It prints the
// REST base URL and a token for alice as shell lines, then serves until
// interrupted. bench/README.md uses it with wrk.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/signal"

	"github.com/forgehq/forge/refserver"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:0", "listen address")
	issues := flag.Int("issues", 1000, "issues to seed in alice/app")
	flag.Parse()
	s, err := refserver.New(refserver.Options{Addr: *addr})
	if err == nil {
		err = s.Start()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "restload:", err)
		os.Exit(1)
	}
	must := func(_ any, err error) {
		if err != nil {
			fmt.Fprintln(os.Stderr, "restload:", err)
			os.Exit(1)
		}
	}
	must(s.CreateUser("alice", "alice-password-123", ""))
	must(s.CreateRepo("alice", "app", refserver.RepoOptions{AutoInit: true}))
	for i := 1; i <= *issues; i++ {
		must(s.CreateIssue("alice/app", "", fmt.Sprintf("Issue %d", i), "Something is wrong."))
	}
	tok, err := s.Token("alice")
	must(nil, err)
	fmt.Printf("BASE=%s\nTOKEN=%s\nPID=%d\n", s.BaseURL(), tok, os.Getpid())
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt)
	<-ch
	s.Close()
}
