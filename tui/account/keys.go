package account

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/internal/sshpub"
	"github.com/forgehq/forge/internal/text"
	"github.com/forgehq/forge/tui/common"
	"github.com/forgehq/forge/tui/components"
)

type keysMsg struct {
	owner, gen int
	keys       []*client.SSHKey
	err        error
}

// keyFileMsg is a public key read from a file, ready to be named.
type keyFileMsg struct {
	owner int
	path  string
	key   *sshpub.Key
	err   error
}

type keyAddedMsg struct {
	owner int
	key   *client.SSHKey
	err   error
}

type keyDeletedMsg struct {
	owner int
	title string
	err   error
}

// keys lists the account's SSH keys; a adds one from a file (its path,
// then its title, asked on the last line), d deletes the selected one
// after a confirmation.
type keys struct {
	ctx     *common.Context
	id      int
	table   *components.Table
	load    common.Load
	keys    []*client.SSHKey
	confirm *components.Confirm
	// The add flow: step "path" asks for the file, "title" for its name.
	step   string
	input  *components.Editor
	picked *sshpub.Key
	busy   string
	width  int
	height int

	keyAdd, keyDelete key.Binding
}

func newKeys(ctx *common.Context) *keys {
	k := &keys{ctx: ctx, id: ctx.NewID(), confirm: components.NewConfirm(ctx), input: components.NewEditor(ctx, false)}
	k.table = components.NewTable(ctx,
		components.Column{Title: "TITLE", Flex: 1, Min: 8},
		components.Column{Title: "FINGERPRINT", Width: 50},
		components.Column{Title: "ID", Width: 4, Right: true},
	)
	k.table.Empty = "No SSH keys yet: press a to add one from a .pub file."
	k.keyAdd = common.Binding("a", "add a key from a file", "a")
	k.keyDelete = common.Binding("d", "delete (asks first)", "d", "delete")
	return k
}

func (k *keys) Init() tea.Cmd    { return k.fetch() }
func (k *keys) Refresh() tea.Cmd { return k.fetch() }

func (k *keys) fetch() tea.Cmd {
	c, err := k.ctx.REST()
	if err != nil {
		k.load.Fail(err)
		return nil
	}
	gen := k.load.Start()
	ctx, owner := k.ctx.Ctx, k.id
	return func() tea.Msg {
		ks, err := client.Collect(c.Keys.List(ctx, client.ListOptions{PerPage: 100}), 0)
		return keysMsg{owner: owner, gen: gen, keys: ks, err: err}
	}
}

func (k *keys) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case keysMsg:
		if msg.owner != k.id || !k.load.Finish(msg.gen, msg.err) {
			return nil
		}
		if msg.err != nil {
			return common.Error(msg.err)
		}
		k.keys = msg.keys
		k.setRows()
	case keyFileMsg:
		if msg.owner == k.id {
			return k.fileRead(msg)
		}
	case keyAddedMsg:
		if msg.owner == k.id {
			k.busy = ""
			if msg.err != nil {
				return common.Error(msg.err)
			}
			return tea.Batch(k.fetch(), changed, common.Status(fmt.Sprintf("Added SSH key %q (%s).", msg.key.Title, msg.key.Fingerprint)))
		}
	case keyDeletedMsg:
		if msg.owner == k.id {
			k.busy = ""
			if msg.err != nil {
				return common.Error(msg.err)
			}
			return tea.Batch(k.fetch(), changed, common.Status(fmt.Sprintf("Deleted SSH key %q.", msg.title)))
		}
	case tea.KeyPressMsg:
		return k.key(msg)
	case tea.PasteMsg:
		if k.step != "" {
			k.input.Update(msg)
			return nil
		}
		k.table.Update(msg)
	case tea.MouseWheelMsg:
		k.table.Update(msg)
	}
	return nil
}

func (k *keys) key(msg tea.KeyPressMsg) tea.Cmd {
	switch {
	case k.confirm.Active():
		if msg.String() == "y" || msg.String() == "Y" {
			k.busy = "deleting"
		}
		return k.confirm.Update(msg)
	case k.step != "":
		return k.typing(msg)
	case k.table.Capturing():
		_, cmd := k.table.Update(msg)
		return cmd
	case key.Matches(msg, k.keyAdd):
		k.step = "path"
		k.input.Prompt = "Public key file: "
		k.input.SetValue(defaultKeyFile(k.ctx.Factory.Getenv))
		k.input.Focus()
	case key.Matches(msg, k.keyDelete):
		if i := k.table.SelectedIndex(); i >= 0 {
			sk := k.keys[i]
			k.confirm.Ask(fmt.Sprintf("Delete the SSH key %q (%s)?", sk.Title, sk.Fingerprint), k.delete(sk))
		}
	default:
		_, cmd := k.table.Update(msg)
		return cmd
	}
	return nil
}

// typing takes the path, then the title; esc drops the addition.
func (k *keys) typing(msg tea.KeyPressMsg) tea.Cmd {
	switch msg.String() {
	case "esc":
		k.step, k.picked = "", nil
		k.input.Blur()
		return common.Status("No key added.")
	case "enter":
		value := strings.TrimSpace(k.input.Value())
		if k.step == "path" {
			return k.readFile(value)
		}
		if value == "" {
			return common.Error(errors.New("a key needs a title: type one (the key's comment is the usual choice)"))
		}
		return k.add(value)
	}
	k.input.Update(msg)
	return nil
}

// defaultKeyFile is the first of ~/.ssh's usual public keys that exists.
func defaultKeyFile(getenv func(string) string) string {
	home := getenv("HOME")
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	for _, n := range sshpub.DefaultFiles() {
		p := filepath.Join(home, ".ssh", n)
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	return filepath.Join(home, ".ssh") + string(filepath.Separator)
}

// readFile reads and checks the key file: a private key or anything that
// is not one public key line is refused before anything is sent.
func (k *keys) readFile(path string) tea.Cmd {
	owner := k.id
	k.busy = "reading"
	return func() tea.Msg {
		data, err := readLimited(expandHome(path), 64<<10)
		if errors.Is(err, fs.ErrNotExist) {
			return keyFileMsg{owner: owner, path: path, err: fmt.Errorf("no such file: %s", path)}
		}
		if err != nil {
			return keyFileMsg{owner: owner, path: path, err: err}
		}
		pk, err := sshpub.Parse(data)
		if err != nil {
			err = fmt.Errorf("%s: %w", path, err)
		}
		return keyFileMsg{owner: owner, path: path, key: pk, err: err}
	}
}

func expandHome(p string) string {
	if rest, ok := strings.CutPrefix(p, "~/"); ok {
		if home, err := os.UserHomeDir(); err == nil {
			return filepath.Join(home, rest)
		}
	}
	return p
}

func readLimited(path string, limit int64) ([]byte, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	st, err := fh.Stat()
	if err == nil && st.IsDir() {
		return nil, fmt.Errorf("%s is a directory: give the .pub file", path)
	}
	return io.ReadAll(io.LimitReader(fh, limit))
}

func (k *keys) fileRead(msg keyFileMsg) tea.Cmd {
	k.busy = ""
	if msg.err != nil {
		// The path stays typed, to correct.
		return common.Error(msg.err)
	}
	k.picked = msg.key
	k.step = "title"
	k.input.Prompt = "Title: "
	title := msg.key.Comment
	if title == "" {
		title, _ = os.Hostname()
	}
	k.input.SetValue(title)
	return nil
}

func (k *keys) add(title string) tea.Cmd {
	c, err := k.ctx.REST()
	if err != nil {
		return common.Error(err)
	}
	line := k.picked.Line()
	k.step, k.picked, k.busy = "", nil, "adding"
	k.input.Blur()
	ctx, owner := k.ctx.Ctx, k.id
	return func() tea.Msg {
		added, err := c.Keys.Add(ctx, title, line)
		return keyAddedMsg{owner: owner, key: added, err: err}
	}
}

func (k *keys) delete(sk *client.SSHKey) tea.Cmd {
	c, err := k.ctx.REST()
	if err != nil {
		return common.Error(err)
	}
	ctx, owner, id, title := k.ctx.Ctx, k.id, sk.ID, sk.Title
	return func() tea.Msg {
		return keyDeletedMsg{owner: owner, title: title, err: c.Keys.Delete(ctx, id)}
	}
}

func (k *keys) setRows() {
	st := k.ctx.Styles
	rows := make([]components.Row, len(k.keys))
	for i, sk := range k.keys {
		rows[i] = components.Row{Key: strconv.FormatInt(sk.ID, 10), Cells: []string{
			text.OneLine(sk.Title), st.Dim.Render(text.OneLine(sk.Fingerprint)), st.Dim.Render(strconv.FormatInt(sk.ID, 10))}}
	}
	k.table.SetRows(rows)
}

func (k *keys) SetSize(width, height int) {
	k.width, k.height = width, height
	k.table.SetSize(width, height-2)
	k.input.SetWidth(width)
}

func (k *keys) View() string {
	if !k.load.Done {
		return k.ctx.Placeholder(&k.load, "your SSH keys", k.width, k.height)
	}
	st := k.ctx.Styles
	var foot string
	switch {
	case k.confirm.Active():
		foot = k.confirm.View(k.width)
	case k.busy != "":
		foot = st.Accent.Render(k.ctx.Spinner) + " " + map[string]string{"reading": "Reading the key…", "adding": "Adding the key…", "deleting": "Deleting the key…"}[k.busy]
	case k.step != "":
		foot = k.input.View()
	}
	hint := st.Dim.Render("a adds a key from a .pub file · d deletes the selected key")
	if k.step != "" {
		hint = st.Dim.Render("enter goes on · esc drops the addition")
	}
	return common.Pad(common.Pad(k.table.View(), k.width, k.height-2)+"\n"+hint+"\n"+foot, k.width, k.height)
}

func (k *keys) Title() string   { return "SSH keys" }
func (k *keys) Capturing() bool { return k.table.Capturing() || k.confirm.Active() || k.step != "" }
func (k *keys) CanGoBack() bool { return k.table.CanGoBack() }
func (k *keys) Animating() bool { return k.load.Busy || k.busy != "" }

func (k *keys) ShortHelp() []key.Binding {
	if k.step != "" {
		return []key.Binding{common.Binding("enter", "go on", "enter"), common.Binding("esc", "drop the addition", "esc")}
	}
	return []key.Binding{k.keyAdd, k.keyDelete, k.ctx.Keys.Refresh}
}

func (k *keys) FullHelp() [][]key.Binding {
	return [][]key.Binding{k.table.KeyHelp(), {k.keyAdd, k.keyDelete, k.ctx.Keys.Refresh}}
}
