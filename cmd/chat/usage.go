package chat

import (
	"context"
	"strconv"
	"time"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/app/output"
	"github.com/forgehq/forge/chat"
	"github.com/forgehq/forge/internal/iostreams"
	"github.com/spf13/cobra"
)

type usageOptions struct {
	cmdutil.Deps
	exporter *output.Exporter
}

func newUsageCmd(f *cmdutil.Factory, runF func(context.Context, *usageOptions) error) *cobra.Command {
	opts := &usageOptions{Deps: f.Deps()}
	runF = cmdcore.Seam(runF, runUsage)
	cmd := &cobra.Command{
		Use:   "usage",
		Short: "Show the agent key's token usage and quota",
		Long: `Show the agent API key's tier, the tokens used this period out of its quota,
what remains and when the period resets. On a terminal the numbers are
grouped and the reset time is relative; piped, each line is a tab-separated
key and raw value.`,
		Example: `  forge chat usage
  forge chat usage --json remaining --jq .remaining`,
		Args: cmdcore.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runF(cmd.Context(), opts)
		},
	}
	opts.exporter = output.AddJSONFlags(cmd, "tier", "used_tokens", "quota_tokens", "remaining", "period_resets")
	return cmd
}

func runUsage(ctx context.Context, opts *usageOptions) error {
	if err := opts.exporter.Validate(); err != nil {
		return err
	}
	client, err := opts.Agent()
	if err != nil {
		return err
	}
	u, err := client.Usage(ctx)
	if err != nil {
		return explain(err)
	}
	ios := opts.IO
	if opts.exporter.Enabled() {
		return opts.exporter.Write(ios, u.Raw)
	}
	if !ios.IsStdoutTTY() {
		resets := u.PeriodResets
		if t, ok := u.Resets(); ok {
			resets = t.UTC().Format(time.RFC3339) // ISO 8601, as every piped time
		}
		return ios.Printf("tier\t%s\nused_tokens\t%d\nquota_tokens\t%d\nremaining\t%d\nperiod_resets\t%s\n",
			u.Tier, u.UsedTokens, u.QuotaTokens, u.Remaining, resets)
	}
	cs := ios.ColorScheme()
	resets := cs.Sprintf("%s", u.PeriodResets)
	if t, ok := u.Resets(); ok {
		resets = cs.Sprintf("%s%s", t.UTC().Format("2006-01-02 15:04 MST"), cs.Gray(" (in "+chat.Until(t, time.Now())+")"))
	}
	var pct iostreams.Styled
	if u.QuotaTokens > 0 {
		pct = cs.Gray(" (" + strconv.FormatFloat(100*float64(u.UsedTokens)/float64(u.QuotaTokens), 'f', 1, 64) + "%)")
	}
	return ios.Printf("%s %s\n%s %s of %s tokens%s\n%s %s\n%s %s\n",
		cs.Bold("tier:     "), u.Tier,
		cs.Bold("used:     "), chat.Thousands(u.UsedTokens), chat.Thousands(u.QuotaTokens), pct,
		cs.Bold("remaining:"), chat.Thousands(u.Remaining),
		cs.Bold("resets:   "), resets)
}
