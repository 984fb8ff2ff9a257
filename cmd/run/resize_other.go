//go:build !unix

package run

import (
	"context"
	"os"
)

// notifyResize never fires where there is no SIGWINCH; each poll redraws
// at the terminal's current width anyway.
func notifyResize(context.Context) <-chan os.Signal { return nil }
