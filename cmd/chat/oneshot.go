package chat

import (
	"context"
	"fmt"

	"github.com/forgehq/forge/chat"
)

// runOneShot sends one message. Stdout gets the reply and nothing else:
// streamed raw as it arrives (ending in a newline) — rendered as markdown
// when stdout is a terminal — or with --json the service's JSON. Token
// usage goes to stderr, only when it is a terminal.
func runOneShot(ctx context.Context, opts *chatOptions, s *chat.Session, message string) error {
	ios := opts.IO
	// The reply arrives and its tokens are spent even when the reader of
	// stdout stops early (`| head -1`): the turn is saved all the same,
	// and a closed stdout is not a failure of the conversation (exit 0).
	defer ios.KeepOnBrokenPipe()()
	var (
		usage chat.Usage
		err   error
	)
	switch {
	case opts.exporter.Enabled() || opts.noStream:
		var reply *chat.Reply
		reply, err = s.Send(ctx, message)
		if err != nil {
			break
		}
		usage = reply.Usage
		if opts.exporter.Enabled() {
			err = opts.exporter.Write(ios, reply.Raw)
		} else {
			w := newReplyView(ios, ios.Out)
			w.WriteString(reply.Reply)
			w.finish()
		}
	default:
		w := newReplyView(ios, ios.Out)
		usage, err = s.Turn(ctx, message, w.WriteString)
		w.finish()
	}
	if saveErr := save(opts, s); err == nil {
		err = saveErr
	}
	if err != nil {
		return explain(err)
	}
	if ios.IsStderrTTY() {
		ios.ErrPrintln(ios.ErrColorScheme().Dim(usageLine(usage, s.LastContextTokens)))
	}
	return quotaCut(usage)
}

// quotaCut makes a reply cut off at the key's quota an error, after it has
// been printed: a script must not take half a reply for a whole one.
func quotaCut(u chat.Usage) error {
	if u.FinishReason == "quota" {
		return fmt.Errorf("the reply was cut off: the agent key's token quota is used up; `forge chat usage` says when it resets")
	}
	return nil
}

// usageLine describes one reply's token usage and the part of the prompt
// attached context took (forge's estimate).
func usageLine(u chat.Usage, contextTokens int) string {
	if u.TotalTokens == 0 && u.PromptTokens == 0 {
		return "(no token usage reported)"
	}
	prompt := chat.Thousands(u.PromptTokens) + " prompt"
	if contextTokens > 0 {
		prompt += " (about " + chat.Thousands(contextTokens) + " of it attached context)"
	}
	return fmt.Sprintf("%s tokens: %s + %s reply", chat.Thousands(u.TotalTokens), prompt, chat.Thousands(u.CompletionTokens))
}

// lineEnd writes through to w and remembers whether the output ends a
// line, so finish can end it.
type lineEnd struct {
	w       interface{ Write([]byte) (int, error) }
	started bool
	lastNL  bool
}

func (l *lineEnd) WriteString(s string) {
	if s == "" {
		return
	}
	l.w.Write([]byte(s))
	l.started, l.lastNL = true, s[len(s)-1] == '\n'
}

// finish ends the last line, if anything was written and it is open.
func (l *lineEnd) finish() {
	if l.started && !l.lastNL {
		l.w.Write([]byte("\n"))
		l.lastNL = true
	}
}
