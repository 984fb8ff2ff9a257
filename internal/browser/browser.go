// Package browser opens a web page for the user: $BROWSER when set, else
// the platform's opener; where there is no browser to open (no $BROWSER
// and no display, or no opener installed) it prints the address instead,
// so the user can open it elsewhere.
package browser

import (
	"errors"
	"fmt"
	"net/url"
	"os/exec"
	"runtime"
	"strings"

	"github.com/forgehq/forge/internal/iostreams"
	"github.com/forgehq/forge/internal/text"
)

// Open opens address, which came from the service (an html_url) and so is
// opened only when it is an http or https URL: anything else (file:,
// javascript:, an option-like "-x") is refused before any program runs.
// getenv reads the environment ($BROWSER, $DISPLAY, $WAYLAND_DISPLAY).
//
// $BROWSER is a command, run with the address as its last argument. On
// Linux and the BSDs without $BROWSER and without a display (an SSH
// session, a container) there is no browser to open: the address is
// printed on stdout.
func Open(ios *iostreams.IOStreams, getenv func(string) string, address string) error {
	u, err := url.Parse(address)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("the service gave %q as the web address, which is not an http(s) URL; not opening it", text.OneLine(address))
	}
	argv := command(getenv, address)
	if argv == nil {
		return printURL(ios, address, "no browser here (set $BROWSER to open pages); the address:")
	}
	if ios.IsStderrTTY() {
		ios.ErrPrintf("Opening %s in your browser.\n", text.OneLine(address))
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdout, cmd.Stderr = ios.ErrOut, ios.ErrOut
	err = cmd.Run()
	if errors.Is(err, exec.ErrNotFound) {
		return printURL(ios, address, "no browser found (set $BROWSER); the address:")
	}
	if err != nil {
		return fmt.Errorf("opening %s with %s: %v", text.OneLine(address), argv[0], err)
	}
	return nil
}

// command is the program that opens address, or nil where none can.
func command(getenv func(string) string, address string) []string {
	if b := strings.TrimSpace(getenv("BROWSER")); b != "" {
		return append(strings.Fields(b), address)
	}
	switch runtime.GOOS {
	case "darwin":
		return []string{"open", address}
	case "windows":
		return []string{"rundll32", "url.dll,FileProtocolHandler", address}
	}
	if getenv("DISPLAY") == "" && getenv("WAYLAND_DISPLAY") == "" {
		return nil
	}
	return []string{"xdg-open", address}
}

func printURL(ios *iostreams.IOStreams, address, note string) error {
	if ios.IsStderrTTY() {
		ios.ErrPrintf("%s %s\n", ios.ErrColorScheme().WarningIcon(), text.Capitalize(note))
	}
	err := ios.Println(address)
	return err
}
