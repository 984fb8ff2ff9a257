// Package chat implements `forge chat`: a conversation with the service's
// agent, interactive on a terminal or one-shot for scripts, and `forge chat
// usage`.
package chat

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/app/output"
	"github.com/forgehq/forge/chat"
	"github.com/spf13/cobra"
)

type chatOptions struct {
	cmdutil.Deps

	message     string
	messageSet  bool
	model       string
	noStream    bool
	interactive bool
	historyFile string
	saveFile    string
	exporter    *output.Exporter
	context     contextOptions
}

// NewCmd returns `forge chat` and `forge chat usage`.
func NewCmd(f *cmdutil.Factory) *cobra.Command {
	cmd := newChatCmd(f, nil)
	cmd.AddCommand(newUsageCmd(f, nil))
	return cmd
}

func newChatCmd(f *cmdutil.Factory, runF func(context.Context, *chatOptions) error) *cobra.Command {
	opts := &chatOptions{Deps: f.Deps()}
	runF = cmdcore.Seam(runF, runChat)
	cmd := &cobra.Command{
		Use:   "chat [flags]",
		Short: "Chat with the service's agent",
		Long: `Chat with the service's AI agent.

On a terminal, forge chat holds a conversation: each reply streams in as it
is written, token usage follows it on stderr, the up arrow recalls earlier
input (a message of several lines whole, its line breaks shown as ⏎), Tab
completes commands, model names and REF kinds (listing the choices when
there are several), a line ending in \ (or a multi-line paste) continues
the message, and Ctrl-C stops a reply (the part received stays in the
conversation, marked). A reply is read up to 8 MiB of text: a stream that
goes on past that is stopped with an error, the part received kept, as
with Ctrl-C. Ctrl-D on an empty line ends the session; so does
Ctrl-C, twice once the conversation has begun. Commands:

  /help          list the commands
  /model [NAME]  switch models; without NAME, show the current and available ones
  /usage         the key's token usage, quota and when it resets, and
                 what attached context cost
  /with REF      attach context to the next message (see below)
  /context       list what is attached and its size in tokens
  /reset         forget the conversation so far
  /exit          end the session

A message that starts with / is typed with //.

--with REF (repeatable) and /with REF attach what the service holds to the
next message, so the agent knows what you are looking at: issue:12 (title,
body, comments), pull:3 (title, state, author, base ← head, body and the
diff of what its commits changed), run:57 (the run, its jobs and the last
500 lines of each failed job's log), file:PATH[@REF] (a text file of up to
1 MiB, at a branch, tag or commit), commit:SHA (its message and the
changed files the service shows).
REFs are resolved in the repository of -R, else FORGE_REPO, else the git
remote here. Attachments are cut to fit the key's remaining quota and
--context-limit (default 16,000 tokens; the profile's chat_context_limit in
config.yaml sets another default) — logs from the top, since their end is
where failures are — and forge says what it cut. Before they leave the
machine, tokens of the service (fgt_..., agk_..., registry JWTs),
Authorization and X-API-Key header values and passwords in URLs are masked;
--no-redact sends them as they are.

For scripts, give the message with -m or on stdin (without the newline that
ends it): forge chat prints the reply to stdout as it streams, and nothing
else. --no-stream waits for the whole reply; --json prints the service's JSON
({reply, usage, ...}); --history FILE continues a saved conversation and
--save FILE writes it back; given the same FILE, the first turn, before the
file exists, starts the conversation. A reader that stops early
(` + "`| head -1`" + `) loses nothing: the reply is received whole and saved, and
forge exits 0. With -i, a session reads its lines (messages and commands)
from a pipe; when its stdout's reader goes away, the session saves the turn
in progress and ends there (exit 0; exit 1 when stdout cannot be written).

The agent's address and key come from AGENT_URL and AGENT_API_KEY, else the
profile's agent_url and agent_key (see ` + "`forge auth agent-key set`" + `).`,
		Example: `  AGENT_URL=http://127.0.0.1:8080 AGENT_API_KEY=agk_... forge chat
  forge chat -m "How do I rotate my SSH key?"
  git diff | forge chat --model ref-1-mini
  forge chat --history notes.json --save notes.json -m "And after that?"
  forge chat -m "Summarise" --json reply,usage --jq .usage.total_tokens
  forge chat -R alice/webapp --with issue:12 --with file:main.go -m "Where would the fix go?"`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return cmdcore.UsageErrorf("forge chat takes no arguments; pass the message with -m, as in `forge chat -m %q`", strings.Join(args, " "))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.messageSet = cmd.Flags().Changed("message")
			if err := opts.context.limit.Check(cmd); err != nil {
				return err
			}
			return runF(cmd.Context(), opts)
		},
	}
	fl := cmd.Flags()
	fl.StringVarP(&opts.message, "message", "m", "", "Send this `message` and print the reply (one-shot)")
	fl.StringVar(&opts.model, "model", "", "Use this `model` (default: the saved conversation's, else the service's)")
	fl.BoolVar(&opts.noStream, "no-stream", false, "Wait for the whole reply instead of streaming it")
	fl.BoolVarP(&opts.interactive, "interactive", "i", false, "Hold a session even when stdin is not a terminal, one line per message or command")
	cmdcore.PathFlag(cmd, &opts.historyFile, "history", "", "", "Continue the conversation saved in `FILE`")
	cmdcore.PathFlag(cmd, &opts.saveFile, "save", "", "", "Save the conversation to `FILE` after each reply")
	addContextFlags(cmd, &opts.context)
	opts.exporter = output.AddJSONFlags(cmd, "reply", "model", "usage", "finish_reason")
	cmd.RegisterFlagCompletionFunc("model", completeModels(f))
	return cmd
}

// completeModels completes --model with the models the service lists.
func completeModels(f *cmdutil.Factory) cobra.CompletionFunc {
	return func(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		client, err := f.Agent()
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		names, _, err := client.Models(cmd.Context())
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		return names, cobra.ShellCompDirectiveNoFileComp
	}
}

func runChat(ctx context.Context, opts *chatOptions) error {
	if err := opts.exporter.Validate(); err != nil {
		return err
	}
	ios := opts.IO
	session := !opts.messageSet && (opts.interactive || ios.IsStdinTTY())
	if session && opts.exporter.Enabled() {
		return cmdcore.UsageErrorf("--json, --jq and --template need one message: pass it with -m or on stdin")
	}
	if opts.messageSet && opts.interactive {
		return cmdcore.UsageErrorf("-m sends one message; -i holds a session: use one of them")
	}
	if err := opts.context.checkRefs(); err != nil {
		return err
	}
	// Read the message before anything else, so bad input is refused
	// before the configuration or the network are touched.
	message := opts.message
	if !session && !opts.messageSet {
		data, err := io.ReadAll(ios.In)
		if err != nil {
			return fmt.Errorf("reading the message from stdin: %w", err)
		}
		// `echo hi | forge chat` sends "hi", as -m hi does: the line
		// ending the shell adds is not part of the message.
		message = strings.TrimRight(string(data), "\r\n")
	}
	if !session && strings.TrimSpace(message) == "" {
		return cmdcore.UsageErrorf("empty message: pass one with -m TEXT or on stdin")
	}
	conv, err := loadConversation(opts)
	if err != nil {
		return err
	}
	client, err := opts.Agent()
	if err != nil {
		return err
	}
	s := &chat.Session{Client: client, Model: conv.Model, History: conv.History}
	if opts.model != "" {
		s.Model = opts.model
	}
	if err := setUpContext(ctx, opts.Deps, &opts.context, s, ios.ErrOut, ios.ErrColorScheme().Dim); err != nil {
		return err
	}
	if session {
		return runSession(ctx, opts, s)
	}
	return runOneShot(ctx, opts, s, message)
}

func loadConversation(opts *chatOptions) (*chat.Conversation, error) {
	if opts.historyFile == "" {
		return &chat.Conversation{}, nil
	}
	c, err := chat.LoadConversation(opts.historyFile)
	switch {
	case errors.Is(err, fs.ErrNotExist) && sameFile(opts.historyFile, opts.saveFile):
		// The first turn of a conversation kept in one file: nothing
		// to continue yet, and --save creates it.
		return &chat.Conversation{}, nil
	case errors.Is(err, fs.ErrNotExist):
		return nil, cmdcore.UsageErrorf("--history: no such file: %s (to start a conversation kept there, pass --save %s too)", opts.historyFile, opts.historyFile)
	case err != nil:
		return nil, cmdcore.UsageErrorf("--history: %v", err)
	}
	return c, nil
}

// sameFile reports whether two paths name the same file, which need not
// exist yet.
func sameFile(a, b string) bool {
	if a == "" || b == "" {
		return false
	}
	aa, errA := filepath.Abs(a)
	ab, errB := filepath.Abs(b)
	return errA == nil && errB == nil && aa == ab
}

// save writes the conversation to --save, if given.
func save(opts *chatOptions, s *chat.Session) error {
	if opts.saveFile == "" {
		return nil
	}
	if err := chat.SaveConversation(opts.saveFile, &chat.Conversation{Model: s.Model, History: s.History}); err != nil {
		return fmt.Errorf("--save: %w", err)
	}
	return nil
}

// explain adds what to do to the agent API's errors.
func explain(err error) error {
	var he *chat.Error
	switch {
	case errors.As(err, &he) && he.CredentialsRefused():
		return cmdcore.AuthErrorf("%v; check AGENT_API_KEY, or store a key with `forge auth agent-key set`", err)
	case errors.Is(err, chat.ErrEmptyMessage):
		return &cmdcore.UsageError{Err: err}
	}
	return err
}
