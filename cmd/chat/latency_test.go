package chat_test

import (
	"bufio"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// BenchmarkDeltaLatency measures how long a delta takes from the server's
// write on a loopback socket to forge's stdout: a server streams numbered
// deltas 1 ms apart, timestamping each write; `forge chat -m` (this test
// binary acting as forge, in its own process) prints them to a pipe, whose
// reader timestamps each one as it first appears. "pipe" is the raw output
// of scripts; "terminal" poses as a terminal (FORGE_FORCE_TTY), where each
// delta goes through the markdown stream and the preview line. Reported:
// the median, 99th percentile and worst latency over all deltas.
func BenchmarkDeltaLatency(b *testing.B) {
	b.Run("pipe", func(b *testing.B) { benchLatency(b) })
	b.Run("terminal", func(b *testing.B) { benchLatency(b, "FORGE_FORCE_TTY=100") })
}

func benchLatency(b *testing.B, env ...string) {
	const deltas = 100
	var (
		mu   sync.Mutex
		sent map[int]time.Time
	)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.(http.Flusher).Flush()
		for i := range deltas {
			time.Sleep(time.Millisecond)
			msg := fmt.Sprintf("event: delta\ndata: \"d%d \"\n\n", i)
			mu.Lock()
			sent[i] = time.Now()
			mu.Unlock()
			io.WriteString(w, msg)
			w.(http.Flusher).Flush()
		}
		io.WriteString(w, "event: usage\ndata: {}\n\nevent: done\ndata: {}\n\n")
	}))
	defer ts.Close()

	var lat []time.Duration
	for b.Loop() {
		sent = map[int]time.Time{}
		c := exec.Command(os.Args[0], "chat", "-m", "hi")
		c.Env = append(os.Environ(), "FORGE_TEST_AS_FORGE=1", "AGENT_URL="+ts.URL, "AGENT_API_KEY=agk_bench", "FORGE_CONFIG_DIR="+b.TempDir(), "NO_COLOR=1")
		c.Env = append(c.Env, env...)
		out, err := c.StdoutPipe()
		if err != nil {
			b.Fatal(err)
		}
		if err := c.Start(); err != nil {
			b.Fatal(err)
		}
		seen := map[int]bool{}
		r := bufio.NewReader(out)
		for {
			// Deltas are "d<n> "; a terminal's preview shows each again.
			word, err := r.ReadString(' ')
			now := time.Now()
			if err != nil {
				break
			}
			i := strings.LastIndexByte(word, 'd')
			n, perr := strconv.Atoi(strings.TrimSpace(word[i+1:]))
			if i < 0 || perr != nil || seen[n] {
				continue
			}
			seen[n] = true
			mu.Lock()
			lat = append(lat, now.Sub(sent[n]))
			mu.Unlock()
		}
		if err := c.Wait(); err != nil {
			b.Fatal(err)
		}
		if len(seen) != deltas {
			b.Fatalf("saw %d of %d deltas", len(seen), deltas)
		}
	}
	slices.Sort(lat)
	q := func(p float64) float64 { return float64(lat[int(p*float64(len(lat)-1))].Microseconds()) }
	b.ReportMetric(q(0.5), "p50-µs")
	b.ReportMetric(q(0.99), "p99-µs")
	b.ReportMetric(float64(lat[len(lat)-1].Microseconds()), "max-µs")
	b.ReportMetric(float64(len(lat)), "deltas")
}
