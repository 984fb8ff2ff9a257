package auth

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/config"
	"github.com/spf13/cobra"
)

func newAgentKeyCmd(f *cmdutil.Factory) *cobra.Command {
	cmd := cmdcore.Group(&cobra.Command{
		Use:     "agent-key <command>",
		Short:   "Store the agent chat API key",
		Example: `  printenv AGENT_API_KEY | forge auth agent-key set`,
		Long: `Store the key of the agent chat API in a profile. AGENT_URL and AGENT_API_KEY,
when set, take precedence over what is stored.`,
	})
	cmd.AddCommand(newAgentKeySetCmd(f, nil))
	return cmd
}

type agentKeySetOptions struct {
	cmdutil.Deps
	agentURL string
	insecure bool
}

func newAgentKeySetCmd(f *cmdutil.Factory, runF func(context.Context, *agentKeySetOptions) error) *cobra.Command {
	opts := &agentKeySetOptions{Deps: f.Deps()}
	runF = cmdcore.Seam(runF, runAgentKeySet)
	cmd := &cobra.Command{
		Use:   "set",
		Short: "Store an agent API key, read from stdin, in the current profile",
		Long: `Store an agent API key in the current profile (or the one named by --profile).
The key is read from standard input, so it stays out of the shell history and
the process list; on a terminal it is asked for without echo. It is not
checked against the service: ` + "`forge chat usage`" + ` does that. It is stored in
the OS keyring, or in the config file (mode 0600) when no keyring service
answers or with --insecure-storage.`,
		Example: `  printenv AGENT_API_KEY | forge auth agent-key set
  forge auth agent-key set --agent-url https://agent.example.com < key.txt
  forge --profile dev auth agent-key set`,
		Args: cmdcore.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runF(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVar(&opts.agentURL, "agent-url", "", "Also store the agent API's `URL` in the profile")
	cmd.Flags().BoolVar(&opts.insecure, "insecure-storage", false, config.InsecureStorageUsage)
	return cmd
}

func runAgentKeySet(ctx context.Context, opts *agentKeySetOptions) error {
	ios := opts.IO
	var agentURL string
	if opts.agentURL != "" {
		u, err := config.NormalizeServiceURL("agent URL", opts.agentURL)
		if err != nil {
			return &cmdcore.UsageError{Err: err}
		}
		agentURL = u
	}
	s, err := opts.Settings()
	if err != nil {
		return err
	}
	key, err := readAgentKey(ctx, opts.Deps)
	if err != nil {
		return err
	}
	saved, err := opts.UpdateProfile(s.Profile, opts.insecure, func(p *config.Profile) error {
		p.AgentKey = key
		if agentURL != "" {
			p.AgentURL = agentURL
		}
		return nil
	})
	if err != nil {
		return err
	}
	cs := ios.ErrColorScheme()
	ios.ErrPrintf("%s Stored the agent API key (%s) in profile %s\n", cs.SuccessIcon(), config.Mask(key), cs.Bold(s.Profile))
	if n := saved.PlainTextNotice(); n != "" {
		ios.ErrPrintf("%s %s\n", cs.WarningIcon(), n)
	}
	if opts.Getenv("AGENT_API_KEY") != "" {
		ios.ErrPrintf("%s AGENT_API_KEY is set in the environment and takes precedence over the stored key\n", cs.WarningIcon())
	}
	return nil
}

// readAgentKey takes the key from stdin, or asks for it without echo on a
// terminal. It must be one word.
func readAgentKey(ctx context.Context, d cmdutil.Deps) (string, error) {
	ios := d.IO
	var key string
	if ios.IsStdinTTY() {
		k, err := d.Prompter.Password(ctx, "Agent API key")
		if err != nil {
			return "", err
		}
		key = k
	} else {
		b, err := io.ReadAll(io.LimitReader(ios.In, 64<<10))
		if err != nil {
			return "", fmt.Errorf("reading the key from stdin: %w", err)
		}
		key = string(b)
	}
	key = strings.TrimSpace(key)
	switch {
	case key == "":
		return "", cmdcore.UsageErrorf("no agent API key given: pipe it in, as in `printenv AGENT_API_KEY | forge auth agent-key set`")
	case strings.ContainsAny(key, " \t\r\n"):
		return "", cmdcore.UsageErrorf("the agent API key must be one word without spaces or line breaks; pipe in only the key")
	}
	return key, nil
}
