package chat

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"github.com/charmbracelet/x/ansi"
	"io"
	"os"
	"strings"

	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/chat"
	"github.com/forgehq/forge/internal/iostreams"
	"github.com/forgehq/forge/internal/text"
)

// runSession holds a conversation: on a terminal with the line editor, or
// (-i) reading lines from a pipe. Replies and command answers go to
// stdout; token usage, notices and errors to stderr. An error in one turn
// does not end the session; in a piped session it makes the exit status 1.
func runSession(ctx context.Context, opts *chatOptions, s *chat.Session) error {
	ios := opts.IO
	cs := ios.ErrColorScheme()
	// A reader of stdout that goes away (`| head -1`) must not kill the
	// session mid-turn: the turn is saved, then the session ends.
	defer ios.KeepOnBrokenPipe()()
	src, rawOut, errOut, tty, err := sessionIO(ctx, opts, s)
	if err != nil {
		return err
	}
	defer src.close()
	out := &sessionOut{w: rawOut, gone: ios.OutGone}
	s.Notify = func(note string) { fmt.Fprintln(errOut, cs.Dim("forge: "+note)) }
	for _, a := range s.Pending() {
		fmt.Fprintln(errOut, cs.Dim(fmt.Sprintf("Attached %s (%s, about %s tokens); it goes with your first message.", a.Ref, a.Title, chat.Thousands(a.Tokens()))))
	}

	failed := false
	warned := false // Ctrl-C on an empty line said how to leave
	// On a terminal the conversation is spaced as the TUI's chat tab
	// spaces it: a blank line before each prompt that follows output, and
	// between a message and its reply.
	spaced := ios.IsStdoutTTY()
	blank := spaced
	report := func(err error) {
		failed = true
		fmt.Fprintf(errOut, "forge: %s\n", cmdcore.ErrorMessage(ios, explain(err)))
	}
	for {
		if out.ended() {
			// Nobody reads the replies any more: nothing more is sent.
			// The last turn was saved after it ended, as each is.
			if out.err != nil {
				return fmt.Errorf("cannot write to standard output (%w): the session ended%s", out.err, savedIn(opts))
			}
			return sessionEnd(failed, tty)
		}
		if blank {
			fmt.Fprintln(out)
			blank = false
		}
		msg, err := src.readMessage(ctx)
		switch {
		case errors.Is(err, errInterrupted) && len(s.History) > 0 && !warned:
			// A Ctrl-C meant for a reply that had just ended must not
			// drop the conversation.
			warned = true
			fmt.Fprintln(errOut, cs.Dim("(press Ctrl-C again or Ctrl-D to leave)"))
			continue
		case err == io.EOF || errors.Is(err, errInterrupted):
			return sessionEnd(failed, tty)
		case errors.Is(err, errCleared):
			warned = false
			continue
		case err != nil:
			return err
		}
		warned = false
		if strings.TrimSpace(msg) == "" {
			continue
		}
		blank = spaced
		if chat.IsCommand(msg) {
			err := command(ctx, src, s, msg, out, ios.IsStdoutTTY())
			if errors.Is(err, chat.ErrExit) {
				return sessionEnd(failed, tty)
			}
			switch {
			case ctx.Err() != nil:
				return ctx.Err()
			case errors.Is(err, context.Canceled):
				fmt.Fprintln(errOut, cs.Dim("(interrupted)"))
			case err != nil:
				report(err)
			}
			continue
		}
		if spaced {
			fmt.Fprintln(out)
		}
		err = turn(ctx, src, s, chat.Unescape(msg), opts.noStream, newReplyView(ios, out), errOut, cs.Dim)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if err != nil {
			report(err)
		}
		if err := save(opts, s); err != nil {
			report(err)
		}
	}
}

// sessionIO sets up the session's input and output: the line editor on a
// terminal (in raw mode, so output needs CRLF), else lines from the pipe.
func sessionIO(ctx context.Context, opts *chatOptions, s *chat.Session) (src lineSource, out, errOut io.Writer, tty bool, err error) {
	ios := opts.IO
	out, errOut = ios.Out, ios.ErrOut
	stdin, ok := ios.In.(*os.File)
	if !ok || !ios.IsStdinTTY() {
		return &pipeSource{r: bufio.NewReader(ios.In)}, out, errOut, false, nil
	}
	cs := ios.ErrColorScheme()
	screen := os.Stderr
	if ios.IsStdoutTTY() {
		screen = os.Stdout
	}
	t, err := newTTYSource(ctx, stdin, screen, string(cs.BoldCyan("> ")), string(cs.Gray("… ")), string(cs.Gray("(cleared; the up arrow brings it back)")+"\r\n"), completer(ctx, s))
	if err != nil {
		return nil, nil, nil, false, fmt.Errorf("cannot use the terminal for the session: %w; pipe the messages in with -i instead", err)
	}
	if ios.IsStdoutTTY() {
		out = crlfWriter{out}
	}
	if ios.IsStderrTTY() {
		errOut = crlfWriter{errOut}
	}
	model := s.Model
	if model == "" {
		model = "the service's default model"
	}
	banner := fmt.Sprintf("Chatting with %s. /help lists the commands (Tab completes them); Ctrl-D or /exit ends the session.", model)
	if ios.IsStderrTTY() {
		// Wrapped at spaces: the terminal would cut words in two.
		banner = ansi.Wordwrap(banner, ios.TerminalWidth(), "")
	}
	for _, line := range strings.Split(banner, "\n") {
		fmt.Fprintln(errOut, cs.Gray(line))
	}
	return t, out, errOut, true, nil
}

// savedIn says where the conversation is kept, when --save keeps it.
func savedIn(opts *chatOptions) string {
	if opts.saveFile == "" {
		return ""
	}
	return "; the conversation is saved in " + opts.saveFile
}

func sessionEnd(failed, tty bool) error {
	if failed && !tty {
		return cmdcore.ErrSilent
	}
	return nil
}

// command runs an in-session command; Ctrl-C stops only the command. Its
// answer quotes the service (model names, the history), so on a terminal
// it is sanitized.
func command(ctx context.Context, src lineSource, s *chat.Session, line string, out io.Writer, tty bool) error {
	cmdCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	defer src.replying(cancel)()
	if !tty {
		return s.Command(cmdCtx, line, out)
	}
	w := text.NewWriter(out)
	defer w.Flush()
	return s.Command(cmdCtx, line, w)
}

// turn shows one reply as it streams (or, with --no-stream, once it is
// whole). Ctrl-C stops only this reply.
func turn(ctx context.Context, src lineSource, s *chat.Session, msg string, noStream bool, w replyView, errOut io.Writer, dim func(string) iostreams.Styled) error {
	replyCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	done := src.replying(cancel)
	var (
		usage chat.Usage
		err   error
	)
	if noStream {
		var r *chat.Reply
		if r, err = s.Send(replyCtx, msg); err == nil {
			usage = r.Usage
			w.WriteString(r.Reply)
		}
	} else {
		usage, err = s.Turn(replyCtx, msg, w.WriteString)
	}
	done()
	w.finish()
	switch {
	case err == nil:
		fmt.Fprintln(errOut, dim(usageLine(usage, s.LastContextTokens)))
		return quotaCut(usage)
	case errors.Is(err, context.Canceled) && ctx.Err() == nil:
		fmt.Fprintln(errOut, dim("(reply interrupted; the part received stays in the conversation)"))
		return nil
	}
	return err
}

// sessionOut is the session's stdout. Its first failed write (a terminal
// gone: EIO) is kept and what follows dropped; gone says the reader went
// away on purpose (KeepOnBrokenPipe dropped the write). Either ends the
// session once the turn in progress has been saved.
type sessionOut struct {
	w    io.Writer
	gone func() bool
	err  error
}

func (o *sessionOut) Write(b []byte) (int, error) {
	if o.err == nil {
		_, o.err = o.w.Write(b)
	}
	return len(b), nil
}

func (o *sessionOut) ended() bool { return o.err != nil || o.gone() }
