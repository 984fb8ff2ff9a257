package iostreams

import (
	"os"
	"os/signal"
	"syscall"
)

// KeepOnBrokenPipe keeps forge running when whoever reads stdout stops
// reading (`forge chat ... | head -1`): a write to the closed pipe no
// longer kills the process with SIGPIPE (exit 141), and what is written
// after it is dropped without an error, so the command finishes what must
// not be lost (chat saves a turn whose tokens are spent) and exits as it
// would have. It returns the function that restores both; call it once the
// command is done writing.
func (s *IOStreams) KeepOnBrokenPipe() (stop func()) {
	if s.outTTY {
		return func() {} // a terminal does not stop reading
	}
	// Asking for the signal, rather than ignoring it, leaves the programs
	// forge starts with the default (an ignored signal is inherited).
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, syscall.SIGPIPE)
	out := s.Out
	s.Out = &goneWriter{w: out}
	return func() {
		s.Out = out
		signal.Stop(ch)
	}
}

// OutGone reports whether stdout's reader has gone while KeepOnBrokenPipe
// (or the pager) held it: its writes are being dropped, so a command that
// goes on writing (a chat session) can stop instead.
func (s *IOStreams) OutGone() bool {
	g, ok := s.Out.(*goneWriter)
	return ok && g.gone
}
