package refserver

import "testing"

func TestConnBoundStaysUnderTheOpenFilesLimit(t *testing.T) {
	for _, c := range []struct{ max, files, want int }{
		{4096, 0, 4096},     // limit unknown
		{4096, 20000, 4096}, // room enough
		{4096, 1024, 896},   // a common default limit
		{-1, 1024, 896},     // "no bound" still stays under the limit
		{4096, 100, 1},
	} {
		if got := connBound(c.max, c.files); got != c.want {
			t.Errorf("connBound(%d, %d) = %d, want %d", c.max, c.files, got, c.want)
		}
	}
}
