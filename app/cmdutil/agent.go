package cmdutil

import (
	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/app/redact"
	"github.com/forgehq/forge/chat"
	"github.com/forgehq/forge/config"
	"github.com/forgehq/forge/internal/build"
)

// Agent returns a client of the agent chat API. Its address and key come
// from AGENT_URL and AGENT_API_KEY, the two variables of the service's
// specification, else from the profile's agent_url (by default the base
// URL's origin) and agent_key. It is built on first use, so commands that
// do not chat never read the configuration for it; it shares HTTPClient's
// connection pool.
func (f *Factory) Agent() (*chat.Client, error) {
	s, err := f.Settings()
	if err != nil {
		return nil, err
	}
	if s.AgentURL == "" && s.AgentKey == "" {
		return nil, cmdcore.AuthErrorf("the agent API is not configured: set AGENT_URL and AGENT_API_KEY, or store them in the profile with `forge profile add NAME --base-url URL --agent-url URL` and `forge auth agent-key set`")
	}
	if s.AgentURL == "" {
		return nil, cmdcore.UsageErrorf("no agent API address: set AGENT_URL (and AGENT_API_KEY), or add one to the profile with `forge profile add %s --force --base-url URL --agent-url URL`", s.Profile)
	}
	if msg := s.WithheldError("agent_url"); msg != "" && s.AgentKey == "" {
		return nil, cmdcore.AuthErrorf("%s", msg)
	}
	if s.AgentKey == "" {
		return nil, cmdcore.AuthErrorf("no agent API key: set AGENT_API_KEY (and AGENT_URL), or store one in the profile with `forge auth agent-key set`")
	}
	u, err := config.NormalizeServiceURL("agent URL", s.AgentURL)
	if err != nil {
		if s.Sources["agent_url"] == config.FromEnv {
			return nil, cmdcore.UsageErrorf("AGENT_URL: %v", err)
		}
		return nil, &cmdcore.UsageError{Err: err}
	}
	wait, err := f.httpTimeout()
	if err != nil {
		return nil, err
	}
	c := chat.New(u, s.AgentKey, f.HTTPClient(), build.UserAgent())
	c.Wait = wait
	return c, nil
}

// Redactor masks, in what forge sends to the agent, the secrets this run
// holds (redact.Held: the profile's token, agent key and registry
// password, FORGE_*/AGENT_* secrets in the environment) and the generic
// forms of secret. Without settings it masks the generic forms only.
func (f *Factory) Redactor() *redact.Redactor {
	s, err := f.Settings()
	if err != nil {
		return nil
	}
	return redact.New(redact.Held(*s, f.Getenv)...)
}
