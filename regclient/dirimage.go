package regclient

import (
	"archive/tar"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"time"

	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
	"github.com/google/go-containerregistry/pkg/v1/types"
)

// dirEpoch is the time of every file in a directory's layer and of the
// image's config: the image depends on the files' content, not on when
// they were written or checked out.
var dirEpoch = time.Unix(0, 0).UTC()

// OpenAny opens what `forge image push` takes: any source Open takes, or
// a directory that is not an OCI layout, pushed as an image of one layer
// holding its files (as `crane append` does), so an image needs no
// docker to build.
func OpenAny(path string, o OpenOptions) (*Source, error) {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() && !isLayout(path) {
		return OpenDir(path)
	}
	return Open(path, o)
}

// isLayout reports whether dir looks like an OCI image layout (its
// oci-layout file, or index.json beside blobs/), rather than files to
// put in an image; a site's own index.json does not make it a layout.
func isLayout(dir string) bool {
	exists := func(name string) bool {
		_, err := os.Lstat(filepath.Join(dir, name))
		return err == nil
	}
	return exists("oci-layout") || exists("index.json") && exists("blobs")
}

// OpenDir makes an image of dir's files: one layer holding every file,
// directory and symbolic link under dir (dir itself is the image's /),
// and an OCI config naming this machine's OS and architecture, with no
// entrypoint. The layer is deterministic (entries sorted, times fixed,
// owner root), so the same files give the same digest, and pushing them
// again sends nothing.
func OpenDir(dir string) (*Source, error) {
	// Walked once now, so an unreadable or special file fails before any
	// request; the layer is written from the same walk each time it is read.
	if _, err := dirEntries(dir); err != nil {
		return nil, err
	}
	layer, err := tarball.LayerFromOpener(func() (io.ReadCloser, error) {
		pr, pw := io.Pipe()
		go func() { pw.CloseWithError(writeDirTar(pw, dir)) }()
		return pr, nil
	}, tarball.WithMediaType(types.OCILayer))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	img, err := dirImage(layer)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	return &Source{Desc: "directory " + dir + " (one layer of its files)", image: img}, nil
}

// dirImage is the OCI image of one layer for linux on this machine's
// architecture: container runtimes run linux images (a darwin image of a
// site pushed from a Mac would be refused by every one of them).
func dirImage(layer v1.Layer) (v1.Image, error) {
	base := mutate.ConfigMediaType(mutate.MediaType(empty.Image, types.OCIManifestSchema1), types.OCIConfigJSON)
	base, err := mutate.ConfigFile(base, &v1.ConfigFile{
		Architecture: runtime.GOARCH,
		OS:           "linux",
		Created:      v1.Time{Time: dirEpoch},
		RootFS:       v1.RootFS{Type: "layers"},
	})
	if err != nil {
		return nil, err
	}
	return mutate.Append(base, mutate.Addendum{
		Layer:   layer,
		History: v1.History{Created: v1.Time{Time: dirEpoch}, CreatedBy: "forge image push DIR"},
	})
}

// dirEntry is one file of the layer: its path in the image (slashes, no
// leading /) and what Lstat said of it.
type dirEntry struct {
	name string
	info fs.FileInfo
}

// dirEntries lists dir's files in lexical order (WalkDir's), refusing
// what a layer cannot hold (sockets, devices, pipes).
func dirEntries(dir string) ([]dirEntry, error) {
	var out []dirEntry
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p == dir {
			return nil
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		if t := fi.Mode().Type(); t != 0 && t != fs.ModeDir && t != fs.ModeSymlink {
			return fmt.Errorf("%s is a %s: an image's files can be regular files, directories and symbolic links", p, t)
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		out = append(out, dirEntry{filepath.ToSlash(rel), fi})
		return nil
	})
	return out, err
}

// writeDirTar writes dir's files to w as an uncompressed tar, with
// nothing of the machine in it: times fixed, owner root, no user names.
func writeDirTar(w io.Writer, dir string) error {
	entries, err := dirEntries(dir)
	if err != nil {
		return err
	}
	tw := tar.NewWriter(w)
	for _, e := range entries {
		if err := writeDirEntry(tw, dir, e); err != nil {
			return err
		}
	}
	return tw.Close()
}

// writeDirEntry writes one file's header and content.
func writeDirEntry(tw *tar.Writer, dir string, e dirEntry) error {
	p := filepath.Join(dir, filepath.FromSlash(e.name))
	hdr := &tar.Header{Name: e.name, Mode: int64(e.info.Mode().Perm()), ModTime: dirEpoch}
	switch e.info.Mode().Type() {
	case fs.ModeDir:
		hdr.Typeflag, hdr.Name = tar.TypeDir, e.name+"/"
	case fs.ModeSymlink:
		target, err := os.Readlink(p)
		if err != nil {
			return err
		}
		hdr.Typeflag, hdr.Linkname = tar.TypeSymlink, target
	default:
		hdr.Typeflag, hdr.Size = tar.TypeReg, e.info.Size()
	}
	if err := tw.WriteHeader(hdr); err != nil {
		return err
	}
	if hdr.Typeflag != tar.TypeReg {
		return nil
	}
	f, err := os.Open(p)
	if err != nil {
		return err
	}
	defer f.Close()
	// A file that changed size since the walk fails the layer (the tar
	// writer refuses a short or long entry) rather than making a wrong one.
	if _, err := io.Copy(tw, f); err != nil {
		return fmt.Errorf("%s: %w", p, err)
	}
	return nil
}
