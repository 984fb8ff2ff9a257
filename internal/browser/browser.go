// Package browser opens a service's web page in the user's browser:
// $BROWSER when set (a command line, run with the address as its last
// argument), else the platform's opener.
package browser

import (
	"errors"
	"fmt"
	"net/url"
	"os/exec"
	"runtime"
	"strings"
)

// ErrNoBrowser is returned when neither $BROWSER nor the platform's
// opener is there: show the address instead.
var ErrNoBrowser = errors.New("no browser found (set $BROWSER)")

// Command is the command that opens address. Only http and https
// addresses are opened: an address comes from the server, and a file:
// address or one that starts with "-" must never reach an opener.
func Command(getenv func(string) string, address string) (*exec.Cmd, error) {
	u, err := url.Parse(address)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("%q is not a web address; it is not opened", address)
	}
	var argv []string
	if b := strings.TrimSpace(getenv("BROWSER")); b != "" {
		argv = append(strings.Fields(b), address)
	} else {
		switch runtime.GOOS {
		case "darwin":
			argv = []string{"open", address}
		case "windows":
			argv = []string{"rundll32", "url.dll,FileProtocolHandler", address}
		default:
			argv = []string{"xdg-open", address}
		}
	}
	path, err := exec.LookPath(argv[0])
	if err != nil {
		return nil, ErrNoBrowser
	}
	return exec.Command(path, argv[1:]...), nil
}
