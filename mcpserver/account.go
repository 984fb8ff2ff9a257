package mcpserver

import "context"

// Account is who the user is: never a secret.
type Account struct {
	Login        string `json:"login"`
	Name         string `json:"name,omitempty"`
	Email        string `json:"email,omitempty"`
	Admin        bool   `json:"admin"`
	Role         string `json:"role,omitempty"`
	TwoFAEnabled bool   `json:"two_factor_enabled"`
	SSHKeyAdded  bool   `json:"ssh_key_added"`
	Service      string `json:"service"`
}

// NoInput is the input of a tool that takes none.
type NoInput struct{}

func accountTools() []toolDef {
	return []toolDef{
		handle("whoami", whoami),
	}
}

func whoami(ctx context.Context, s *Server, _ NoInput) (Account, error) {
	c, err := s.opts.Backend.REST()
	if err != nil {
		return Account{}, err
	}
	u, err := c.Account.Me(ctx)
	if err != nil {
		return Account{}, err
	}
	st, err := c.Account.State(ctx)
	if err != nil {
		return Account{}, err
	}
	return Account{Login: u.Login, Name: u.FullName, Email: u.Email, Admin: u.IsAdmin, Role: st.Role,
		TwoFAEnabled: st.TwoFAEnabled, SSHKeyAdded: st.SSHKeyAdded, Service: c.BaseURL()}, nil
}
