package chat

import (
	"context"
	"fmt"
	"io"

	"github.com/forgehq/forge/app/agentctx"
	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/chat"
	"github.com/forgehq/forge/cmd/internal/ctxlimit"
	"github.com/forgehq/forge/internal/iostreams"
	"github.com/spf13/cobra"
)

// contextOptions are the flags of attached context.
type contextOptions struct {
	with     []string
	repo     string
	limit    ctxlimit.Flag
	noRedact bool
}

func addContextFlags(cmd *cobra.Command, o *contextOptions) {
	fl := cmd.Flags()
	fl.StringArrayVar(&o.with, "with", nil, "Attach `REF` to the first message: issue:N, pull:N, run:ID, file:PATH[@REF], commit:SHA (repeatable)")
	o.limit.Add(cmd, "the context attached to one message")
	fl.BoolVar(&o.noRedact, "no-redact", false, "Send attached context as it is, without masking secrets (the ones forge holds, tokens, Authorization headers, passwords)")
	cmdutil.AddRepoFlag(cmd, &o.repo)
	cmd.RegisterFlagCompletionFunc("with", func(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
		return chat.ContextRefKinds, cobra.ShellCompDirectiveNoSpace | cobra.ShellCompDirectiveNoFileComp
	})
}

// checkRefs refuses a malformed --with before anything else runs.
func (o *contextOptions) checkRefs() error {
	for _, ref := range o.with {
		if _, err := agentctx.ParseRef(ref); err != nil {
			return &cmdcore.UsageError{Err: fmt.Errorf("--with: %w", err)}
		}
	}
	return nil
}

// attacher builds attachments from the repository's data; the repository
// (-R, FORGE_REPO, the git remote) is resolved on the first REF.
func (o *contextOptions) attacher(d cmdutil.Deps) chat.AttachFunc {
	return func(ctx context.Context, ref string) (*chat.Attachment, error) {
		if _, err := agentctx.ParseRef(ref); err != nil {
			return nil, err
		}
		c, repo, err := d.RepoClient(ctx, o.repo)
		if err != nil {
			return nil, err
		}
		return agentctx.Build(ctx, c, repo, ref, agentctx.Options{NoRedact: o.noRedact, Redactor: d.Redactor()})
	}
}

// setUpContext gives the session its budget and /with, and attaches the
// --with REFs to the first message. notes (nil for none) hears what was
// attached and what the budget cut.
func setUpContext(ctx context.Context, d cmdutil.Deps, o *contextOptions, s *chat.Session, notes io.Writer, dim func(string) iostreams.Styled) error {
	limit, err := o.limit.Tokens(d)
	if err != nil {
		return err
	}
	s.ContextLimit = limit
	s.Attach = o.attacher(d)
	s.Notify = func(note string) { fmt.Fprintln(notes, dim("forge: "+note)) }
	for _, ref := range o.with {
		a, err := s.Attach(ctx, ref)
		if err != nil {
			if agentctx.IsRefError(err) {
				return &cmdcore.UsageError{Err: err}
			}
			return err
		}
		s.AttachContext(a)
	}
	return nil
}
