// Command seed fills a reference server's data directory for benchmarks:
// a user, a repository and many issues, written through refserver's Go API
// (minutes faster than the REST API). Then serve it with
//
//	forge serve --data DIR --admin-password admin-password-1234
//
// Usage:
//
//	go run ./bench/seed -data /tmp/bigdata -issues 10000
package main

import (
	"flag"
	"fmt"
	"log"
	"strings"

	"github.com/forgehq/forge/refserver"
)

func main() {
	data := flag.String("data", "", "data `directory` to create (required)")
	repo := flag.String("repo", "alice/big", "repository `OWNER/NAME` to create; its owner gets password OWNER-password-123")
	issues := flag.Int("issues", 10000, "number of issues to create")
	flag.Parse()
	owner, name, ok := strings.Cut(*repo, "/")
	if *data == "" || !ok {
		flag.Usage()
		log.Fatal("need -data DIR and -repo OWNER/NAME")
	}
	srv, err := refserver.New(refserver.Options{DataDir: *data, AdminPassword: "admin-password-1234"})
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	if _, err := srv.CreateUser(owner, owner+"-password-123", "user"); err != nil {
		log.Fatal(err)
	}
	if _, err := srv.CreateRepo(owner, name, refserver.RepoOptions{AutoInit: true}); err != nil {
		log.Fatal(err)
	}
	for i := 1; i <= *issues; i++ {
		if _, err := srv.CreateIssue(*repo, "", fmt.Sprintf("Issue %d", i), fmt.Sprintf("Body of issue number %d", i)); err != nil {
			log.Fatal(err)
		}
	}
}
