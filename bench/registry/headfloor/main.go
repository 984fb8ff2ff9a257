// Command headfloor sends one manifest HEAD per tag of a repository, N at
// a time over kept-alive connections, and nothing else: the least any
// client showing each tag's digest must ask of a registry whose tags/list
// names no digests. bench/registry/tags.sh runs it beside `crane ls` and
// `forge image tags`:
//
//	go run ./bench/registry/headfloor -c 16 http://127.0.0.1:28418/v2/admin/tags
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"

	"golang.org/x/sync/errgroup"
)

func main() {
	jobs := flag.Int("c", 16, "HEADs at a time")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: headfloor [-c N] http://HOST/v2/REPO")
		os.Exit(2)
	}
	base := flag.Arg(0)
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: *jobs}}
	resp, err := client.Get(base + "/tags/list")
	if err != nil {
		fail(err)
	}
	var list struct{ Tags []string }
	err = json.NewDecoder(resp.Body).Decode(&list)
	resp.Body.Close()
	if err != nil {
		fail(err)
	}
	var g errgroup.Group
	g.SetLimit(*jobs)
	for _, tag := range list.Tags {
		g.Go(func() error {
			req, err := http.NewRequest(http.MethodHead, base+"/manifests/"+tag, nil)
			if err != nil {
				return err
			}
			req.Header.Set("Accept", "application/vnd.oci.image.manifest.v1+json,application/vnd.docker.distribution.manifest.v2+json,application/vnd.oci.image.index.v1+json,application/vnd.docker.distribution.manifest.list.v2+json")
			resp, err := client.Do(req)
			if err != nil {
				return err
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK || resp.Header.Get("Docker-Content-Digest") == "" {
				return fmt.Errorf("HEAD %s: %s, digest %q", tag, resp.Status, resp.Header.Get("Docker-Content-Digest"))
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		fail(err)
	}
	fmt.Println(len(list.Tags), "tags")
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "headfloor:", err)
	os.Exit(1)
}
