// Command mkimage writes a `docker save` tarball of a random image, for
// the registry benchmarks in bench/README.md:
//
//	go run ./bench/registry/mkimage -layers 3 -size 67108864 -o push.tar
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/google/go-containerregistry/pkg/name"
	"github.com/google/go-containerregistry/pkg/v1/random"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
)

func main() {
	layers := flag.Int64("layers", 3, "number of layers")
	size := flag.Int64("size", 64<<20, "bytes of random content per layer")
	out := flag.String("o", "image.tar", "output file")
	flag.Parse()
	img, err := random.Image(*size, *layers)
	if err == nil {
		tag, _ := name.NewTag("bench.example/random:1")
		err = tarball.WriteToFile(*out, tag, img)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "mkimage:", err)
		os.Exit(1)
	}
	d, _ := img.Digest()
	fmt.Println(d)
}
