package chat

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
)

// DefaultContextLimit is the per-message cap on attached context, in
// tokens, when neither a flag nor the configuration sets one.
const DefaultContextLimit = 16_000

// ReplyReserve is the part of the key's remaining quota that attachments
// leave for the reply.
const ReplyReserve = 1_000

// ContextRefForms names the REFs /with accepts, for messages.
const ContextRefForms = "issue:NUMBER, pull:NUMBER, run:ID, file:PATH[@REF] or commit:SHA"

// ContextRefKinds are the REFs' kinds, as Tab completes them (/with, and
// forge chat --with in the shell).
var ContextRefKinds = []string{"issue:", "pull:", "run:", "file:", "commit:"}

// attached is an attachment and, once sent, the tokens it cost.
type attached struct {
	*Attachment
	sent   bool
	tokens int
}

// AttachFunc turns a REF into an attachment (for /with); the caller of
// chat knows the repository and the REST API, chat does not.
type AttachFunc func(ctx context.Context, ref string) (*Attachment, error)

// AttachContext queues attachments to go with the next message.
func (s *Session) AttachContext(atts ...*Attachment) {
	for _, a := range atts {
		s.context = append(s.context, &attached{Attachment: a})
	}
}

// Pending are the attachments not yet sent.
func (s *Session) Pending() []*Attachment {
	var out []*Attachment
	for _, a := range s.context {
		if !a.sent {
			out = append(out, a.Attachment)
		}
	}
	return out
}

// ErrNoRoomForContext means the key's remaining quota (or the cap) leaves
// no room for the attachments' titles.
var ErrNoRoomForContext = errors.New("no room for the attached context: the agent key's quota is nearly used up or the context limit is too small (see `forge chat usage`, --context-limit)")

// outgoing is the message as it will be sent: the pending attachments,
// cut to the budget, before the user's text. It returns the tokens the
// attachments take.
func (s *Session) outgoing(ctx context.Context, message string) (string, int, error) {
	atts := s.Pending()
	if len(atts) == 0 {
		return message, 0, nil
	}
	budget := s.ContextLimit
	if budget <= 0 {
		budget = DefaultContextLimit
	}
	if u, err := s.Client.Usage(ctx); err == nil && u.QuotaTokens > 0 {
		room := u.Remaining - ReplyReserve - EstimateTokens(message) - historyTokens(s.History)
		budget = min(budget, room)
	} else if err != nil && ctx.Err() != nil {
		return "", 0, ctx.Err()
	}
	if !Fit(atts, budget) {
		return "", 0, ErrNoRoomForContext
	}
	tokens := 0
	for _, a := range atts {
		tokens += a.Tokens()
		for _, c := range a.Cuts() {
			if s.Notify != nil {
				s.Notify(c)
			}
		}
	}
	return WithContext(atts, message), tokens, nil
}

// markSent records that the pending attachments went out.
func (s *Session) markSent() {
	for _, a := range s.context {
		if !a.sent {
			a.sent, a.tokens = true, a.Tokens()
		}
	}
}

func historyTokens(h []Message) int {
	n := 0
	for _, m := range h {
		n += EstimateTokens(m.Content) + 4
	}
	return n
}

// withCommand is /with REF: attach context to the next message.
func (s *Session) withCommand(ctx context.Context, args []string, w io.Writer) error {
	if len(args) == 0 {
		return fmt.Errorf("/with takes a REF: %s", ContextRefForms)
	}
	if s.Attach == nil {
		return errors.New("/with is not available here; attach with `forge chat --with REF` or /with in forge chat")
	}
	for _, ref := range args {
		a, err := s.Attach(ctx, ref)
		if err != nil {
			return err
		}
		s.AttachContext(a)
		fmt.Fprintf(w, "Attached %s (%s, about %s tokens); it goes with your next message.\n", a.Ref, a.Title, Thousands(a.Tokens()))
	}
	return nil
}

// contextCommand is /context: what is attached and its size.
func (s *Session) contextCommand(w io.Writer) {
	if len(s.context) == 0 {
		fmt.Fprintf(w, "Nothing attached. /with REF attaches %s.\n", ContextRefForms)
		return
	}
	total := 0
	for _, a := range s.context {
		n, state := a.tokens, "sent"
		if !a.sent {
			n, state = a.Tokens(), "goes with your next message"
		}
		total += n
		fmt.Fprintf(w, "  %-24s %8s tokens  %s (%s)\n", a.Ref, Thousands(n), a.Title, state)
	}
	fmt.Fprintf(w, "  %-24s %8s tokens\n", "total", Thousands(total))
}

// ContextCost describes the tokens the session's sent attachments cost,
// for /usage; "" when nothing was sent.
func (s *Session) ContextCost() string {
	var parts []string
	total := 0
	for _, a := range s.context {
		if a.sent {
			total += a.tokens
			parts = append(parts, fmt.Sprintf("%s %s", a.Ref, Thousands(a.tokens)))
		}
	}
	if total == 0 {
		return ""
	}
	return fmt.Sprintf("Attached context in this session: %s tokens (%s), sent again with each later message as part of the history", Thousands(total), strings.Join(parts, ", "))
}
