package output

import "fmt"

// Count says "1 layer" or "3 layers": n and a noun made plural with s.
func Count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
