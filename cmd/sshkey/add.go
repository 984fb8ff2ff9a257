package sshkey

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/app/output"
	"github.com/forgehq/forge/internal/sshpub"
	"github.com/spf13/cobra"
)

type addOptions struct {
	cmdutil.Deps
	file     string
	title    string
	exporter *output.Exporter
}

func newAddCmd(f *cmdutil.Factory, runF func(context.Context, *addOptions) error) *cobra.Command {
	opts := &addOptions{Deps: f.Deps()}
	runF = cmdcore.Seam(runF, runAdd)
	cmd := &cobra.Command{
		Use:   "add [FILE]",
		Short: "Add an SSH public key to your account",
		Long: `Add a public key from FILE (a .pub file), from standard input with "-",
or by default from the first of ~/.ssh/id_ed25519.pub, ~/.ssh/id_ecdsa.pub
and ~/.ssh/id_rsa.pub. A private key or anything that is not one public key
line is refused before anything is sent.

The title defaults to the key's comment (often you@host). Prints the key's
SHA256 fingerprint, as ` + "`ssh-keygen -l`" + ` shows it.`,
		Example: `  forge ssh-key add
  forge ssh-key add ~/.ssh/work.pub --title "work laptop"
  cat key.pub | forge ssh-key add - --title ci`,
		Args: cmdcore.MaximumArgs(1, "at most one key file"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				opts.file = args[0]
			}
			return runF(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVarP(&opts.title, "title", "t", "", "A `name` for the key (default: its comment)")
	opts.exporter = output.AddJSONFlags(cmd, keyFields...)
	return cmd
}

func runAdd(ctx context.Context, opts *addOptions) error {
	if err := opts.exporter.Validate(); err != nil {
		return err
	}
	name, data, err := opts.readKey()
	if err != nil {
		return err
	}
	key, err := sshpub.Parse(data)
	if err != nil {
		return cmdcore.UsageErrorf("%s: %v", name, err)
	}
	title := strings.TrimSpace(opts.title)
	if title == "" {
		title = key.Comment
	}
	if title == "" {
		if host, err := os.Hostname(); err == nil {
			title = host
		}
	}
	if title == "" {
		return cmdcore.UsageErrorf("the key has no comment to name it by: pass --title")
	}
	c, err := opts.REST()
	if err != nil {
		return err
	}
	added, err := c.Keys.Add(ctx, title, key.Line())
	if err != nil {
		return err
	}
	ios := opts.IO
	if opts.exporter.Enabled() {
		return opts.exporter.Write(ios, added.RawJSON())
	}
	cs := ios.ErrColorScheme()
	fp := added.Fingerprint
	if fp == "" {
		fp = key.Fingerprint()
	} else if fp != key.Fingerprint() {
		ios.ErrPrintf("%s The service reports fingerprint %s; forge computed %s\n", cs.WarningIcon(), fp, key.Fingerprint())
	}
	ios.ErrPrintf("%s Added SSH key %q (ID %d)\n", cs.SuccessIcon(), added.Title, added.ID)
	err = ios.Println(fp)
	return err
}

// readKey reads the named file, standard input for "-", or the first
// default key that exists.
func (o *addOptions) readKey() (string, []byte, error) {
	const limit = 64 << 10
	if o.file == "-" {
		data, err := io.ReadAll(io.LimitReader(o.IO.In, limit))
		return "standard input", data, err
	}
	if o.file != "" {
		data, err := readLimited(o.file, limit)
		if errors.Is(err, fs.ErrNotExist) {
			return "", nil, cmdcore.UsageErrorf("no such file: %s", o.file)
		}
		return o.file, data, err
	}
	home := o.Getenv("HOME")
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	var tried []string
	for _, n := range sshpub.DefaultFiles() {
		p := filepath.Join(home, ".ssh", n)
		data, err := readLimited(p, limit)
		if err == nil {
			return p, data, nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return "", nil, err
		}
		tried = append(tried, p)
	}
	return "", nil, cmdcore.UsageErrorf("no public key found (tried %s): create one with `ssh-keygen -t ed25519` or give the file, as in `forge ssh-key add ~/.ssh/KEY.pub`", strings.Join(tried, ", "))
}

func readLimited(path string, limit int64) ([]byte, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	return io.ReadAll(io.LimitReader(fh, limit))
}
