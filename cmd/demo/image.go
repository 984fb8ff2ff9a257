package demo

import (
	"archive/tar"
	"bytes"
	"io"
	"runtime"
	"time"

	"github.com/google/go-containerregistry/pkg/name"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
)

// writeImage writes a small image to path as a `docker save` tarball: one
// layer holding /hello.txt, for this machine's architecture, with fixed
// dates so every demo pushes the same digest.
func writeImage(path string) error {
	layer, err := tarball.LayerFromOpener(func() (io.ReadCloser, error) {
		return io.NopCloser(bytes.NewReader(helloTar())), nil
	})
	if err != nil {
		return err
	}
	epoch := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	img, err := mutate.ConfigFile(empty.Image, &v1.ConfigFile{
		Architecture: runtime.GOARCH, OS: "linux", Created: v1.Time{Time: epoch},
		Config: v1.Config{Cmd: []string{"cat", "/hello.txt"}},
		RootFS: v1.RootFS{Type: "layers"},
	})
	if err != nil {
		return err
	}
	img, err = mutate.Append(img, mutate.Addendum{Layer: layer, History: v1.History{Created: v1.Time{Time: epoch}, CreatedBy: "forge demo"}})
	if err != nil {
		return err
	}
	tag, err := name.NewTag("forge-demo/hello:1.0")
	if err != nil {
		return err
	}
	return tarball.WriteToFile(path, tag, img)
}

// helloTar is the layer's content: a tar archive of one file.
func helloTar() []byte {
	var b bytes.Buffer
	tw := tar.NewWriter(&b)
	body := []byte("Hello from forge demo!\n")
	tw.WriteHeader(&tar.Header{Name: "hello.txt", Mode: 0o644, Size: int64(len(body)), ModTime: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), Typeflag: tar.TypeReg})
	tw.Write(body)
	tw.Close()
	return b.Bytes()
}
