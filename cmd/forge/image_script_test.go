package main

import (
	"flag"
	"os"
	"strings"

	"github.com/forgehq/forge/refserver"
	"github.com/google/go-containerregistry/pkg/name"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/layout"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/random"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
	"github.com/google/go-containerregistry/pkg/v1/types"
	"github.com/rogpeppe/go-internal/testscript"
)

// Builtins for the image scripts:
//
//	mkimage tarball FILE [-layers N] [-size BYTES] [-var V]  a `docker save` tarball of a random
//	                                                          image; $V is set to its digest
//	mkimage layout DIR [-platforms OS/ARCH,...] [-var V]     an OCI layout holding one index of
//	                                                          random images; $V is its digest
//	regshare REPO USER                                       share a repository (refserver's Go API)
//	dockerconfig [HOST]                                      write $HOME/.docker/config.json naming
//	                                                          forge the credential helper of HOST
//	                                                          (default: the script's registry,
//	                                                          $REGISTRY_HOST)
func init() {
	scriptCmds["mkimage"] = mkimageCmd
	scriptCmds["regshare"] = regshareCmd
	scriptCmds["dockerconfig"] = dockerconfigCmd
}

func dockerconfigCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) > 1 {
		ts.Fatalf("usage: dockerconfig [HOST]")
	}
	host := ts.Getenv("REGISTRY_HOST")
	if len(args) == 1 {
		host = args[0]
	}
	dir := ts.MkAbs(ts.Getenv("HOME") + "/.docker")
	ts.Check(os.MkdirAll(dir, 0o700))
	ts.Check(os.WriteFile(dir+"/config.json", []byte(`{"credHelpers": {"`+host+`": "forge"}}`+"\n"), 0o600))
}

func mkimageCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: mkimage tarball FILE [-layers N] [-size BYTES] | mkimage layout DIR -platforms OS/ARCH,...")
	}
	kind, path := args[0], ts.MkAbs(args[1])
	fs := flag.NewFlagSet("mkimage", flag.ContinueOnError)
	layers := fs.Int64("layers", 2, "layers per image")
	size := fs.Int64("size", 4096, "bytes per layer")
	platforms := fs.String("platforms", "linux/amd64,linux/arm64", "platforms of the index")
	variable := fs.String("var", "", "variable to set to the digest")
	ts.Check(fs.Parse(args[2:]))
	setDigest := func(d v1.Hash) {
		if *variable != "" {
			ts.Setenv(*variable, d.String())
		}
	}
	switch kind {
	case "tarball":
		img, err := random.Image(*size, *layers)
		ts.Check(err)
		tag, _ := name.NewTag("example.com/random/image:1")
		ts.Check(tarball.WriteToFile(path, tag, img))
		d, _ := img.Digest()
		setDigest(d)
	case "layout":
		var adds []mutate.IndexAddendum
		for _, p := range strings.Split(*platforms, ",") {
			plat, err := v1.ParsePlatform(p)
			ts.Check(err)
			img, err := random.Image(*size, *layers)
			ts.Check(err)
			img, err = mutate.ConfigFile(img, &v1.ConfigFile{OS: plat.OS, Architecture: plat.Architecture, RootFS: mustConfig(ts, img).RootFS})
			ts.Check(err)
			adds = append(adds, mutate.IndexAddendum{Add: img, Descriptor: v1.Descriptor{Platform: plat}})
		}
		idx := mutate.AppendManifests(mutate.IndexMediaType(empty.Index, types.OCIImageIndex), adds...)
		lp, err := layout.Write(path, empty.Index)
		ts.Check(err)
		ts.Check(lp.AppendIndex(idx))
		d, _ := idx.Digest()
		setDigest(d)
	default:
		ts.Fatalf("mkimage: unknown kind %q", kind)
	}
}

func mustConfig(ts *testscript.TestScript, img v1.Image) *v1.ConfigFile {
	cf, err := img.ConfigFile()
	ts.Check(err)
	return cf
}

func regshareCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: regshare REPO USER")
	}
	srv, _ := ts.Value(srvKey{}).(*refserver.Server)
	if srv == nil {
		ts.Fatalf("regshare: no reference server in this script")
	}
	ts.Check(srv.Registry().Share(args[0], args[1]))
}
