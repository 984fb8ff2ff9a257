package chat

import (
	"bytes"
	"io"
	"testing"

	"github.com/r3labs/sse/v2"
)

func BenchmarkComponents(b *testing.B) {
	data := benchStream(10000)
	b.Run("library", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			r := sse.NewEventStreamReader(&eofReader{r: bytes.NewReader(data)}, MaxEventSize)
			for {
				if _, err := r.ReadEvent(); err != nil {
					break
				}
			}
		}
	})
	b.Run("next", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			r := newEventReader(bytes.NewReader(data))
			for {
				if _, err := r.next(); err == io.EOF {
					break
				}
			}
		}
	})
}
