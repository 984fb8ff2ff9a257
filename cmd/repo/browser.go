package repo

import (
	"errors"
	"fmt"
	"os/exec"
	"runtime"
	"strings"

	"github.com/forgehq/forge/internal/cmdutil"
	"github.com/forgehq/forge/internal/text"
)

// openBrowser opens url in the user's browser: $BROWSER when set (a
// command, run with the URL as its last argument), else the platform's
// opener. With none to be found it prints the URL, so the user can open it.
func openBrowser(f *cmdutil.Factory, url string) error {
	ios := f.IOStreams
	var argv []string
	if b := strings.TrimSpace(f.Getenv("BROWSER")); b != "" {
		argv = append(strings.Fields(b), url)
	} else {
		switch runtime.GOOS {
		case "darwin":
			argv = []string{"open", url}
		case "windows":
			argv = []string{"rundll32", "url.dll,FileProtocolHandler", url}
		default:
			argv = []string{"xdg-open", url}
		}
	}
	if ios.IsStderrTTY() {
		fmt.Fprintf(ios.ErrOut, "Opening %s in your browser.\n", text.OneLine(url))
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdout, cmd.Stderr = ios.ErrOut, ios.ErrOut
	err := cmd.Run()
	if errors.Is(err, exec.ErrNotFound) {
		fmt.Fprintf(ios.ErrOut, "%s No browser found (set $BROWSER); open this address:\n", ios.ErrColorScheme().WarningIcon())
		_, err = fmt.Fprintln(ios.Out, text.OnTerminal(ios.IsStdoutTTY(), url))
		return err
	}
	if err != nil {
		return fmt.Errorf("opening %s with %s: %v", url, argv[0], err)
	}
	return nil
}
