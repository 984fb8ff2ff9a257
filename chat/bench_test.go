package chat

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"testing/iotest"
)

// benchStream is a typical reply stream: one short delta per token, some
// with escapes, then usage and done.
func benchStream(events int) []byte {
	var b bytes.Buffer
	words := []string{`"The "`, `"quick "`, `"brown\n"`, `"fox "`, `"jumps \"over\" "`, `"the "`, `"lazy "`, `"dog.\n\n"`}
	for i := 0; i < events; i++ {
		b.WriteString("event: delta\ndata: ")
		b.WriteString(words[i%len(words)])
		b.WriteString("\n\n")
	}
	b.WriteString("event: usage\ndata: {\"prompt_tokens\":10,\"completion_tokens\":20,\"total_tokens\":30}\n\nevent: done\ndata: {\"finish_reason\":\"stop\"}\n\n")
	return b.Bytes()
}

// BenchmarkReadStream measures client-side SSE parsing: framing, field
// parsing and JSON string decoding, up to the onDelta call. The bytes come from memory, so this is the parser alone.
func BenchmarkReadStream(b *testing.B) {
	for _, crlf := range []bool{false, true} {
		name := "LF"
		data := benchStream(10000)
		if crlf {
			name = "CRLF"
			data = bytes.ReplaceAll(data, []byte("\n"), []byte("\r\n"))
		}
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			var n int
			rd := bytes.NewReader(data)
			for b.Loop() {
				rd.Reset(data)
				if _, err := readStream(context.Background(), rd, func(s string) { n += len(s) }); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(testing.AllocsPerRun(1, func() {
				rd.Reset(data)
				readStream(context.Background(), rd, func(string) {})
			}))/10002, "allocs/event")
		})
	}
	// The same event read one byte at a time, as a server trickling it
	// would deliver it: the cost stays linear in its size.
	b.Run("1MiB-event-1-byte-reads", func(b *testing.B) {
		data := []byte("event: delta\ndata: \"" + strings.Repeat("a long event ", 1<<20/13) + "\"\n\nevent: done\ndata: {}\n\n")
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		rd := bytes.NewReader(data)
		for b.Loop() {
			rd.Reset(data)
			if _, err := readStream(context.Background(), iotest.OneByteReader(rd), func(string) {}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("1MiB-event", func(b *testing.B) {
		data := []byte("event: delta\ndata: \"" + strings.Repeat("a long event ", 1<<20/13) + "\"\n\nevent: done\ndata: {}\n\n")
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		rd := bytes.NewReader(data)
		for b.Loop() {
			rd.Reset(data)
			if _, err := readStream(context.Background(), rd, func(string) {}); err != nil {
				b.Fatal(err)
			}
		}
	})
}
