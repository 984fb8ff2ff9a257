package companion

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"os"
	"runtime/debug"
)

// errNoBuildInfo: the file holds no build info forge can read.
var errNoBuildInfo = errors.New("no Go build info")

// readBuildInfo reads the build info the go command wrote into the binary
// at path: the blob debug/buildinfo reads, found by its header anywhere in
// the file (ELF, Mach-O and PE alike). debug/buildinfo would link the
// four object-file readers (0.6 MB and three package inits, paid by
// every forge start) for this one look-up.
func readBuildInfo(path string) (*debug.BuildInfo, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	// Built at run time: a literal would put the header itself in the
	// binary's read-only data, where this scan could find it.
	magic := append([]byte{0xff}, " Go buildinf:"...)
	// The blob opens the data, which follows the code and the read-only
	// data in all three formats: read from the end, a megabyte at a time
	// (the chunks overlap by the header's length).
	const chunk = 1 << 20
	buf := make([]byte, chunk+len(magic))
	for end := fi.Size(); end > 0; end -= chunk {
		start := max(0, end-chunk)
		n, err := f.ReadAt(buf[:min(int64(len(buf)), fi.Size()-start)], start)
		if err != nil && err != io.EOF {
			return nil, err
		}
		data := buf[:n]
		for i := 0; ; i++ {
			j := bytes.Index(data[i:], magic)
			if j < 0 {
				break
			}
			i += j
			if pos := start + int64(i); pos%16 == 0 {
				if bi, err := parseBuildInfo(f, pos); err == nil {
					return bi, nil
				}
			}
		}
	}
	return nil, errNoBuildInfo
}

// parseBuildInfo reads the blob at pos: a 32-byte header (the magic, the
// pointer size, flags whose bit 2 says the strings follow inline, as every
// go since 1.18 writes them), then the go version and the module info,
// each a uvarint length and its bytes; the module info is framed by 16
// bytes on each side.
func parseBuildInfo(f *os.File, pos int64) (*debug.BuildInfo, error) {
	blob := make([]byte, 64<<10)
	n, err := f.ReadAt(blob, pos)
	if err != nil && err != io.EOF {
		return nil, err
	}
	blob = blob[:n]
	if len(blob) < 32 || blob[14] != 4 && blob[14] != 8 || blob[15]&2 == 0 {
		return nil, errNoBuildInfo
	}
	rest := blob[32:]
	str := func() (string, bool) {
		l, k := binary.Uvarint(rest)
		if k <= 0 || l > uint64(len(rest)-k) {
			return "", false
		}
		s := string(rest[k : k+int(l)])
		rest = rest[k+int(l):]
		return s, true
	}
	goVersion, ok1 := str()
	mod, ok2 := str()
	if !ok1 || !ok2 || len(mod) < 33 || mod[len(mod)-17] != '\n' {
		return nil, errNoBuildInfo
	}
	bi, err := debug.ParseBuildInfo(mod[16 : len(mod)-16])
	if err != nil {
		return nil, err
	}
	bi.GoVersion = goVersion
	return bi, nil
}
