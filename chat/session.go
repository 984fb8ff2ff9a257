package chat

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"
)

// InterruptedMark ends an assistant message in the history whose reply was
// interrupted, so the agent (and whoever reads a saved conversation) knows
// it is partial.
const InterruptedMark = " [interrupted]"

// Session is one conversation: its history, the model it uses, and the
// in-session commands of the service's specification (/reset, /usage,
// /model NAME, /exit) plus /help.
type Session struct {
	Client  *Client
	Model   string // "" lets the service choose
	History []Message

	// Attach makes an attachment of a REF, for /with (nil: no /with).
	Attach AttachFunc
	// ContextLimit caps the attached context of one message, in tokens
	// (0: DefaultContextLimit); the key's remaining quota caps it too.
	ContextLimit int
	// Notify hears what the budget cut from an attachment, on the
	// goroutine of the Turn that cut it.
	Notify func(string)
	// LastContextTokens is the estimated part of the last message's
	// prompt that attached context took (the service does not report it).
	LastContextTokens int

	context []*attached

	models     []string // cached from Models
	defModel   string
	modelsRead bool
}

// Turn sends message with the history so far and streams the reply to
// onDelta. A complete reply is added to the history with the message. A
// reply interrupted by canceling ctx is added too, as far as it came,
// marked with InterruptedMark; after other errors the history is left as
// it was, so the message can be sent again.
//
// Attached context that has not been sent yet goes before the message (see
// Fit for the budget); LastContextTokens says what it took. onDelta runs
// as Client.Stream's does: on Turn's goroutine, never after it returns.
func (s *Session) Turn(ctx context.Context, message string, onDelta func(string)) (Usage, error) {
	if err := (&Request{Message: message}).check(); err != nil {
		return Usage{}, err
	}
	message, ctxTokens, err := s.outgoing(ctx, message)
	if err != nil {
		return Usage{}, err
	}
	var reply strings.Builder
	u, err := s.Client.Stream(ctx, Request{Model: s.Model, Message: message, History: s.History}, func(d string) {
		reply.WriteString(d)
		onDelta(d)
	})
	s.LastContextTokens = ctxTokens
	switch {
	case err == nil:
		s.History = append(s.History, Message{"user", message}, Message{"assistant", reply.String()})
		s.markSent()
	case (errors.Is(err, context.Canceled) || errors.Is(err, ErrReplyTooLarge)) && reply.Len() > 0:
		s.History = append(s.History, Message{"user", message}, Message{"assistant", reply.String() + InterruptedMark})
		s.markSent()
	}
	return u, err
}

// Send is Turn without streaming (POST /api/v1/chat): the whole reply at
// once, added to the history with the message.
func (s *Session) Send(ctx context.Context, message string) (*Reply, error) {
	if err := (&Request{Message: message}).check(); err != nil {
		return nil, err
	}
	message, ctxTokens, err := s.outgoing(ctx, message)
	if err != nil {
		return nil, err
	}
	r, err := s.Client.Send(ctx, Request{Model: s.Model, Message: message, History: s.History})
	if err != nil {
		return nil, err
	}
	s.LastContextTokens = ctxTokens
	s.History = append(s.History, Message{"user", message}, Message{"assistant", r.Reply})
	s.markSent()
	return r, nil
}

// Commands are the in-session commands, for help and completion.
var Commands = []struct{ Name, Args, Help string }{
	{"/help", "", "show these commands"},
	{"/model", "[NAME]", "switch to model NAME; without NAME, show the current and the available models"},
	{"/usage", "", "show the key's token usage, quota and when the period resets, and what attached context cost"},
	{"/with", "REF", "attach context to your next message: " + ContextRefForms},
	{"/context", "", "list what is attached and its size in tokens"},
	{"/reset", "", "forget the conversation so far and start afresh"},
	{"/exit", "", "end the session (also Ctrl-D on an empty line)"},
}

// IsCommand reports whether a line is an in-session command rather than a
// message: it starts with "/" and a letter. A message that must start with
// "/" is typed with "//", which Unescape turns back into one.
func IsCommand(line string) bool {
	line = strings.TrimSpace(line)
	return len(line) > 1 && line[0] == '/' && (line[1] >= 'a' && line[1] <= 'z' || line[1] >= 'A' && line[1] <= 'Z')
}

// Unescape turns a message typed as "//text" into "/text".
func Unescape(line string) string {
	if strings.HasPrefix(strings.TrimSpace(line), "//") {
		return strings.Replace(line, "//", "/", 1)
	}
	return line
}

// ErrExit is returned by Command for /exit.
var ErrExit = errors.New("exit")

// UnknownCommandError is a "/word" that is not a command; it is never sent
// to the agent.
type UnknownCommandError struct{ Name string }

func (e *UnknownCommandError) Error() string {
	names := make([]string, len(Commands))
	for i, c := range Commands {
		names[i] = c.Name
	}
	return fmt.Sprintf("unknown command %s; commands: %s (start a message with // to send a leading /)", e.Name, strings.Join(names, ", "))
}

// Command runs an in-session command line and writes its answer to w. It
// returns ErrExit for /exit, *UnknownCommandError for a command it does
// not know, and the API's error when /usage or /model fails.
func (s *Session) Command(ctx context.Context, line string, w io.Writer) error {
	fields := strings.Fields(line)
	name, args := strings.ToLower(fields[0]), fields[1:]
	switch name {
	case "/exit", "/quit":
		return ErrExit
	case "/help", "/?":
		for _, c := range Commands {
			fmt.Fprintf(w, "  %-14s %s\n", strings.TrimSpace(c.Name+" "+c.Args), c.Help)
		}
		fmt.Fprintln(w, "  End a line with \\ to continue the message on the next line; start it with // to send a leading /.")
		return nil
	case "/reset":
		n := len(s.History)
		s.History = nil
		s.context = slices.DeleteFunc(s.context, func(a *attached) bool { return a.sent })
		fmt.Fprintf(w, "Conversation reset (%d messages forgotten).\n", n)
		return nil
	case "/usage":
		u, err := s.Client.Usage(ctx)
		if err != nil {
			return err
		}
		fmt.Fprintln(w, FormatUsage(u, time.Now()))
		if c := s.ContextCost(); c != "" {
			fmt.Fprintln(w, c)
		}
		return nil
	case "/with":
		return s.withCommand(ctx, args, w)
	case "/context":
		s.contextCommand(w)
		return nil
	case "/model":
		return s.modelCommand(ctx, args, w)
	}
	return &UnknownCommandError{Name: fields[0]}
}

func (s *Session) modelCommand(ctx context.Context, args []string, w io.Writer) error {
	if len(args) > 1 {
		return fmt.Errorf("/model takes one model name, as in /model %s", strings.Join(args, "-"))
	}
	names, def, err := s.Models(ctx)
	listed := err == nil && len(names) > 0
	if err != nil && !errors.Is(err, ErrNoModelList) {
		return err
	}
	if len(args) == 0 {
		cur := s.Model
		switch {
		case cur == "" && def != "":
			cur = def + " (the service's default)"
		case cur == "":
			cur = "the service's default"
		}
		fmt.Fprintf(w, "Model: %s\n", cur)
		if listed {
			fmt.Fprintf(w, "Available: %s\n", strings.Join(names, ", "))
		} else {
			fmt.Fprintln(w, "The service does not list its models; /model NAME switches to any name it accepts.")
		}
		return nil
	}
	if listed && !slices.Contains(names, args[0]) {
		return fmt.Errorf("unknown model %q; available: %s", args[0], strings.Join(names, ", "))
	}
	s.Model = args[0]
	fmt.Fprintf(w, "Switched to model %s.\n", s.Model)
	return nil
}

// Models lists the service's models and its default, asking the service
// once per session.
func (s *Session) Models(ctx context.Context) ([]string, string, error) {
	if !s.modelsRead {
		names, def, err := s.Client.Models(ctx)
		if err != nil && !errors.Is(err, ErrNoModelList) {
			return nil, "", err
		}
		s.models, s.defModel, s.modelsRead = names, def, true
	}
	if s.models == nil {
		return nil, "", ErrNoModelList
	}
	return s.models, s.defModel, nil
}

// FormatUsage describes a key's usage on one line: used/quota, what
// remains, and when the period resets (relative to now).
func FormatUsage(u *AgentUsage, now time.Time) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s/%s tokens used", Thousands(u.UsedTokens), Thousands(u.QuotaTokens))
	if u.Tier != "" {
		fmt.Fprintf(&b, " (tier %s)", u.Tier)
	}
	fmt.Fprintf(&b, ", %s remaining", Thousands(u.Remaining))
	if t, ok := u.Resets(); ok {
		fmt.Fprintf(&b, ", resets %s (in %s)", t.UTC().Format("2006-01-02 15:04 MST"), Until(t, now))
	} else if u.PeriodResets != "" {
		fmt.Fprintf(&b, ", resets %s", u.PeriodResets)
	}
	return b.String()
}

// Thousands writes n with comma separators: 1234567 as 1,234,567.
func Thousands(n int) string {
	s := fmt.Sprint(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// Until says how long until t in the largest two units: "8d 10h", "3h 5m",
// "42s".
func Until(t, now time.Time) string {
	d := t.Sub(now).Round(time.Second)
	if d <= 0 {
		return "0s"
	}
	days, hours, mins := int(d/(24*time.Hour)), int(d/time.Hour)%24, int(d/time.Minute)%60
	switch {
	case days > 0:
		return fmt.Sprintf("%dd %dh", days, hours)
	case hours > 0:
		return fmt.Sprintf("%dh %dm", hours, mins)
	case mins > 0:
		return fmt.Sprintf("%dm %ds", mins, int(d/time.Second)%60)
	}
	return fmt.Sprintf("%ds", int(d/time.Second))
}
