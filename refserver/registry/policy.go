package registry

import (
	"slices"
	"strings"
)

// Actions on a repository, as tokens name them.
const (
	actionPull   = "pull"
	actionPush   = "push"
	actionDelete = "delete"
	actionAll    = "*"
)

// namespace is the namespace a user owns: the username in lower case,
// because repository names are lower case.
func namespace(user string) string { return strings.ToLower(user) }

// owner returns the namespace of a repository: its first path component.
// A repository of one component ("app") has no owner.
func owner(repo string) string {
	ns, _, ok := strings.Cut(repo, "/")
	if !ok {
		return ""
	}
	return ns
}

// owns reports whether user may push to and delete from repo: only inside
// the namespace equal to the username.
func owns(user, repo string) bool {
	return user != "" && owner(repo) == namespace(user) && validRepo(repo)
}

// permitted returns the actions user may take on repo: everything in the
// own namespace, pull where the repository is shared with the user, nothing
// elsewhere. Admins get nothing more: images are private to their owners.
func (r *Registry) permitted(user, repo string) []string {
	switch {
	case owns(user, repo):
		return []string{actionPull, actionPush, actionDelete, actionAll}
	case r.state.sharedWith(repo, user):
		return []string{actionPull}
	}
	return nil
}

// may reports whether user may take action on repo.
func (r *Registry) may(user, repo, action string) bool {
	return slices.Contains(r.permitted(user, repo), action)
}

// grant intersects the scopes asked for with what the account may do.
// Scopes that grant nothing are left out; the token is still issued, as the
// token specification asks, and the registry then answers 403.
//
// registry:catalog:* goes to site admins only: a registry that trusts
// these tokens (the CNCF registry) lists every repository to whoever holds
// it. This registry's own catalog lists only what the caller may pull, and
// needs no such scope.
func (r *Registry) grant(acct account, asked []scope) []access {
	user := acct.Login
	var out []access
	for _, sc := range asked {
		var allowed []string
		switch sc.Type {
		case "repository":
			allowed = r.permitted(user, sc.Name)
		case "registry":
			if sc.Name == "catalog" && acct.Admin {
				allowed = []string{actionAll}
			}
		}
		var got []string
		for _, a := range sc.Actions {
			if slices.Contains(allowed, a) {
				got = append(got, a)
			}
		}
		if len(got) > 0 {
			out = mergeAccess(out, access{Type: sc.Type, Name: sc.Name, Actions: got})
		}
	}
	return out
}

// mergeAccess adds a to list, joining the actions of an entry for the same
// resource.
func mergeAccess(list []access, a access) []access {
	for i := range list {
		if list[i].Type == a.Type && list[i].Name == a.Name {
			for _, act := range a.Actions {
				if !slices.Contains(list[i].Actions, act) {
					list[i].Actions = append(list[i].Actions, act)
				}
			}
			return list
		}
	}
	return append(list, a)
}

// validRepo reports whether name is a repository name of the registry
// protocol: lower-case components of letters and digits, separated inside
// by '.', '_', "__" or '-', joined by '/'. (A loop, not a regexp.)
func validRepo(name string) bool {
	if name == "" || len(name) > 255 {
		return false
	}
	for _, comp := range strings.Split(name, "/") {
		if !validComponent(comp) {
			return false
		}
	}
	return true
}

func validComponent(c string) bool {
	alnum := func(b byte) bool { return b >= 'a' && b <= 'z' || b >= '0' && b <= '9' }
	i := 0
	for {
		start := i
		for i < len(c) && alnum(c[i]) {
			i++
		}
		if i == start {
			return false
		}
		if i == len(c) {
			return true
		}
		switch c[i] {
		case '.':
			i++
		case '_':
			i++
			if i < len(c) && c[i] == '_' {
				i++
			}
		case '-':
			for i < len(c) && c[i] == '-' {
				i++
			}
		default:
			return false
		}
	}
}

// validTag reports whether t is a tag: [A-Za-z0-9_][A-Za-z0-9._-]{0,127}.
func validTag(t string) bool {
	if t == "" || len(t) > 128 {
		return false
	}
	for i := 0; i < len(t); i++ {
		b := t[i]
		ok := b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b == '_' || (i > 0 && (b == '.' || b == '-'))
		if !ok {
			return false
		}
	}
	return true
}
