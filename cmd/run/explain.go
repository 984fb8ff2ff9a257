package run

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/forgehq/forge/app/agentctx"
	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/app/redact"
	"github.com/forgehq/forge/chat"
	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/cmd/internal/ctxlimit"
	"github.com/forgehq/forge/cmd/internal/runid"
	"github.com/forgehq/forge/internal/iostreams"
	"github.com/forgehq/forge/internal/markdown"
	"github.com/spf13/cobra"
)

// ExplainQuestion is what forge asks the agent about a run that failed,
// after the run's metadata and its failed jobs' log tails.
const ExplainQuestion = "This CI run did not succeed. From the run and the end of each failed job's log attached above: which job and step failed, what is the error, what is the likely cause, and how do I fix it?"

// agentOptions are the flags of a command that asks the agent about a run.
// What asking uses comes with them from the Factory (addAgentFlags), so
// a command's options need no Factory of their own.
type agentOptions struct {
	model    string
	limit    ctxlimit.Flag
	noRedact bool

	agent    func() (*chat.Client, error)
	redactor func() *redact.Redactor
	tokens   func() (int, error) // the context's cap (ctxlimit.Flag.Tokens)
}

func addAgentFlags(cmd *cobra.Command, f *cmdutil.Factory, o *agentOptions) {
	o.agent, o.redactor = f.Agent, f.Redactor
	o.tokens = func() (int, error) { return o.limit.Tokens(f) }
	fl := cmd.Flags()
	fl.StringVar(&o.model, "model", "", "Ask this agent `model` (default: the service's)")
	o.limit.Add(cmd, "the run's context sent to the agent")
	fl.BoolVar(&o.noRedact, "no-redact", false, "Send the logs as they are, without masking secrets (the ones forge holds, tokens, Authorization headers, passwords)")
}

type explainOptions struct {
	cmdutil.Deps
	repo string
	id   int64
	agentOptions
}

func newExplainCmd(f *cmdutil.Factory, runF func(context.Context, *explainOptions) error) *cobra.Command {
	opts := &explainOptions{Deps: f.Deps()}
	runF = cmdcore.Seam(runF, runExplain)
	cmd := &cobra.Command{
		Use:   "explain ID",
		Short: "Ask the agent why a workflow run failed",
		Long: `Ask the service's agent why a workflow run failed: forge sends the run's
metadata, its jobs and the last 500 lines of each failed job's log (jobs
cancelled because another failed are listed, their logs left out) with a
fixed question, and streams the answer to stdout (rendered as markdown on a
terminal).

The exit status is the run's, as with run watch --exit-status: 1 when the
run failed (failure, timed_out, cancelled, ...), 0 when it did not
(success, skipped or neutral: forge says so on stderr and asks nothing) —
so a CI script keeps its logic (an error of its own, such as no agent key,
has its own status: 4):

  forge run watch $ID --exit-status || forge run explain $ID

The logs are cut to fit the agent key's remaining quota and --context-limit
(from the top: the end of a log is where failures are), and forge says on
stderr what it cut. Before the logs leave the machine their colour codes are
removed and secrets masked: the token, agent key and registry password
forge holds and FORGE_*/AGENT_* secrets of the environment, in any form
(hex, base64, URL-escaped), and whatever looks like one (tokens, keys after
a secret-sounding word, Authorization headers, passwords in URLs and
assignments); --no-redact sends them as they are. The agent's address and key are those of forge chat.`,
		Example: `  forge run explain 12
  forge run watch 12 --exit-status || forge run explain 12
  forge run explain 12 --model ref-1-mini --context-limit 4000`,
	}
	runid.Arg(cmd, f, &opts.id, &opts.repo, func(cmd *cobra.Command) error {
		if err := opts.limit.Check(cmd); err != nil {
			return err
		}
		return runF(cmd.Context(), opts)
	})
	cmdutil.AddRepoFlag(cmd, &opts.repo)
	addAgentFlags(cmd, f, &opts.agentOptions)
	return cmd
}

func runExplain(ctx context.Context, opts *explainOptions) error {
	c, repo, err := opts.RepoClient(ctx, opts.repo)
	if err != nil {
		return err
	}
	run, jobs, err := fetchRun(ctx, c, repo, opts.id)
	if err != nil {
		return err
	}
	ios := opts.IO
	if notFailed(ios, run) {
		return nil
	}
	if err := explainRun(ctx, opts.IO, &opts.agentOptions, c, repo, run, jobs, ios.Out); err != nil {
		return err
	}
	return &cmdcore.ExitError{Code: cmdcore.ExitFailure}
}

// explainRun asks the agent why run failed and streams the answer to out.
func explainRun(ctx context.Context, ios *iostreams.IOStreams, o *agentOptions, c *client.Client, repo client.RepoName, run *client.WorkflowRun, jobs []*client.Job, out io.Writer) error {
	if !client.Done(run.Status, run.Conclusion) && !anyFailed(jobs) {
		return fmt.Errorf("run %s is still %s and no job has failed yet; wait for it with `forge run watch %d --exit-status`", runTitle(run), run.State().Word, run.ID)
	}
	agent, err := o.agent()
	if err != nil {
		return err
	}
	limit, err := o.tokens()
	if err != nil {
		return err
	}
	a, err := agentctx.Run(ctx, c, repo, run, jobs, agentctx.Options{NoRedact: o.noRedact, Redactor: o.redactor()})
	if err != nil {
		return err
	}
	cs := ios.ErrColorScheme()
	s := &chat.Session{Client: agent, Model: o.model, ContextLimit: limit,
		Notify: func(note string) { ios.ErrPrintln(cs.Dim("forge: " + note)) }}
	s.AttachContext(a)
	w := replyWriter(ios, out)
	u, err := s.Turn(ctx, ExplainQuestion, func(d string) { io.WriteString(w, d) })
	w.Close()
	if err != nil {
		return agentError(err)
	}
	if ios.IsStderrTTY() {
		ios.ErrPrintln(cs.Dim(fmt.Sprintf("%s tokens: %s prompt (about %s of it the run's context) + %s reply",
			chat.Thousands(u.TotalTokens), chat.Thousands(u.PromptTokens), chat.Thousands(s.LastContextTokens), chat.Thousands(u.CompletionTokens))))
	}
	if u.FinishReason == "quota" {
		return errors.New("the answer was cut off: the agent key's token quota is used up; `forge chat usage` says when it resets")
	}
	return nil
}

// notFailed says on stderr, in one line, that a finished run did not fail
// (client.Failed: success, skipped, neutral), so there is nothing to ask.
func notFailed(ios *iostreams.IOStreams, run *client.WorkflowRun) bool {
	if !client.Done(run.Status, run.Conclusion) || run.Failed() {
		return false
	}
	ios.ErrPrintf("Run %s did not fail (%s); there is no failure to explain.\n", runTitle(run), run.State().Word)
	return true
}

func anyFailed(jobs []*client.Job) bool {
	for _, j := range jobs {
		if j.Failed() {
			return true
		}
	}
	return false
}

// replyWriter shows the answer as it streams: rendered as markdown on a
// terminal (which also keeps the agent's control characters off it), as
// it comes when piped, ending with a newline.
func replyWriter(ios *iostreams.IOStreams, out io.Writer) io.WriteCloser {
	if ios.IsStdoutTTY() {
		return markdown.NewStream(out, markdown.Options{Width: ios.TerminalWidth(), Color: ios.ColorEnabled(), Dark: true})
	}
	return &rawReply{w: out}
}

// rawReply passes the answer through and ends its last line.
type rawReply struct {
	w      io.Writer
	lastNL bool
	any    bool
}

func (r *rawReply) Write(p []byte) (int, error) {
	if len(p) > 0 {
		r.any, r.lastNL = true, p[len(p)-1] == '\n'
	}
	return r.w.Write(p)
}

func (r *rawReply) Close() error {
	if r.any && !r.lastNL {
		_, err := io.WriteString(r.w, "\n")
		return err
	}
	return nil
}

// agentError adds what to do to the agent API's errors.
func agentError(err error) error {
	var he *chat.Error
	if errors.As(err, &he) && he.CredentialsRefused() {
		return cmdcore.AuthErrorf("%v; check AGENT_API_KEY, or store a key with `forge auth agent-key set`", err)
	}
	return err
}
