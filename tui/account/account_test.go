package account

import (
	"context"
	"crypto/ed25519"
	"encoding/base64"
	"encoding/binary"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/tui/common"
	"github.com/forgehq/forge/tui/tuitest"
	"github.com/pquerna/otp"
	"github.com/pquerna/otp/totp"
)

func TestProfile(t *testing.T) {
	t.Parallel()
	srv := tuitest.Server(t)
	d := tuitest.Drive(t, New(tuitest.Context(t, srv, "alice")), 80, 20)
	v := d.UntilView("alice (Alice Martin)", "alice@example.com", "Role        user", "Two-factor  off", "SSH key     none yet")
	if !strings.Contains(v, srv.BaseURL()) || !strings.Contains(v, "as alice") {
		t.Fatalf("the service settings:\n%s", v)
	}
	d = tuitest.Drive(t, New(tuitest.Context(t, srv, "dave")), 80, 20)
	d.UntilView("dave (Dave Kowalski)", "Invited by  carol")
}

// keyLine is an OpenSSH public key line for a fixed ed25519 key.
func keyLine(comment string) string {
	pub := ed25519.NewKeyFromSeed(make([]byte, 32)).Public().(ed25519.PublicKey)
	str := func(b []byte) []byte { return append(binary.BigEndian.AppendUint32(nil, uint32(len(b))), b...) }
	blob := append(str([]byte("ssh-ed25519")), str(pub)...)
	return "ssh-ed25519 " + base64.StdEncoding.EncodeToString(blob) + " " + comment
}

func serverKeys(t *testing.T, ctx *common.Context) []*client.SSHKey {
	t.Helper()
	c, _ := ctx.REST()
	ks, err := client.Collect(c.Keys.List(context.Background(), client.ListOptions{}), 0)
	if err != nil {
		t.Fatal(err)
	}
	return ks
}

func TestKeysAddAndDelete(t *testing.T) {
	t.Parallel()
	srv := tuitest.Server(t)
	ctx := tuitest.Context(t, srv, "alice")
	dir := t.TempDir()
	pub := filepath.Join(dir, "work.pub")
	os.WriteFile(pub, []byte(keyLine("alice@work")+"\n"), 0o644)
	priv := filepath.Join(dir, "work")
	os.WriteFile(priv, []byte("-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----\n"), 0o600)

	k := newKeys(ctx)
	d := tuitest.Drive(t, k, 80, 12)
	d.UntilView("No SSH keys yet")

	// A private key is refused before anything is sent.
	d.Key("a")
	d.Key("ctrl+u")
	d.Type(priv)
	d.Key("enter")
	d.Until("the refusal", func() bool {
		return d.Seen(func(m tea.Msg) bool {
			s, ok := m.(common.StatusMsg)
			return ok && s.Err && strings.Contains(s.Text, "private key, which must never leave your machine")
		})
	})
	if len(serverKeys(t, ctx)) != 0 {
		t.Fatal("a key reached the server")
	}
	// The path stays typed, to correct: the .pub beside it.
	if k.input.Value() != priv {
		t.Fatalf("the path typed is now %q", k.input.Value())
	}
	d.Type(".pub")
	d.Key("enter")
	d.UntilView("Title: alice@work")
	d.Key("backspace", "backspace", "backspace", "backspace")
	d.Type("laptop")
	d.Key("enter")
	d.UntilView("alice@laptop", "SHA256:")
	ks := serverKeys(t, ctx)
	if len(ks) != 1 || ks[0].Title != "alice@laptop" || ks[0].Key != keyLine("alice@work") {
		t.Fatalf("the server has %+v", ks)
	}

	// d asks first; n keeps it, y deletes it.
	d.Key("d")
	d.UntilView(`Delete the SSH key "alice@laptop"`, "[y/N]")
	d.Key("n")
	if len(serverKeys(t, ctx)) != 1 {
		t.Fatal("n deleted the key")
	}
	d.Key("d")
	d.UntilView("[y/N]")
	d.Key("y")
	d.UntilView("No SSH keys yet")
	if len(serverKeys(t, ctx)) != 0 {
		t.Fatal("y did not delete the key")
	}
}

func TestTwoFactorSetup(t *testing.T) {
	t.Parallel()
	srv := tuitest.Server(t)
	ctx := tuitest.Context(t, srv, "alice")
	ctx.Width, ctx.Height = 80, 24
	tf := newTwoFA(ctx)
	d := tuitest.Drive(t, tf, 80, 18)
	d.UntilView("Two-factor authentication is off.")
	d.Key("s")
	d.Until("the QR code", func() bool { return tf.phase == "scan" })
	if !tf.Fullscreen() {
		t.Fatal("the QR code does not get the whole terminal")
	}
	tf.SetSize(80, 24)
	v := d.View()
	lines := strings.Split(v, "\n")
	if len(lines) != 24 || !strings.Contains(lines[0], "██████") || !strings.Contains(v, "Then type the code it shows:") {
		t.Fatalf("the QR view:\n%s", v)
	}
	// The secret as shown, in groups of four: typed into an app by hand,
	// it gives the code that confirms the enrolment.
	secret := strings.ReplaceAll(regexp.MustCompile(`(?m)^.*?  ((?:[A-Z2-7]{4} ?)+)\s*$`).FindAllStringSubmatch(v, -1)[0][1], " ", "")
	secret += strings.ReplaceAll(regexp.MustCompile(`(?m)^.*?  ((?:[A-Z2-7]{1,4} ?)+)\s*$`).FindAllStringSubmatch(v, -1)[1][1], " ", "")
	if secret != tf.setup.Secret {
		t.Fatalf("the view shows secret %q, the server sent %q", secret, tf.setup.Secret)
	}
	d.Type("12345")
	d.Key("enter")
	d.UntilView("✗ the code is the 6 digits your", "authenticator app shows")
	d.Key("ctrl+u")
	code, err := totp.GenerateCodeCustom(secret, tuitest.Now, totp.ValidateOpts{Period: 30, Digits: otp.DigitsSix, Algorithm: otp.AlgorithmSHA1})
	if err != nil {
		t.Fatal(err)
	}
	d.Type(code)
	d.Key("enter")
	d.UntilView("Two-factor authentication is on.")
	if tf.Fullscreen() {
		t.Error("still full screen")
	}
	c, _ := ctx.REST()
	st, err := c.Account.State(context.Background())
	if err != nil || !st.TwoFAEnabled {
		t.Fatalf("the server says %+v (%v)", st, err)
	}
	// Turning it off asks for a code; a wrong one leaves it on.
	d.Key("d")
	d.UntilView("To turn it off, type a current code:")
	d.Type("000000")
	d.Key("enter")
	d.Until("the refusal", func() bool { return tf.err != "" && !tf.busy })
	if st, _ := c.Account.State(context.Background()); !st.TwoFAEnabled {
		t.Fatal("a wrong code turned two-factor off")
	}
	d.Key("esc")
	d.UntilView("Two-factor authentication is on.")
}
