package sshpub

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/base64"
	"encoding/binary"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// sshString encodes b as an SSH wire-format string.
func sshString(b []byte) []byte {
	out := binary.BigEndian.AppendUint32(nil, uint32(len(b)))
	return append(out, b...)
}

func ed25519Line(t *testing.T, comment string) string {
	t.Helper()
	pub, _, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	blob := append(sshString([]byte("ssh-ed25519")), sshString(pub)...)
	return "ssh-ed25519 " + base64.StdEncoding.EncodeToString(blob) + " " + comment
}

func TestParsePublicKey(t *testing.T) {
	line := ed25519Line(t, "alice@laptop")
	k, err := Parse([]byte("\n" + line + "\n"))
	if err != nil {
		t.Fatal(err)
	}
	if k.Type != "ssh-ed25519" || k.Comment != "alice@laptop" || k.Line() != line {
		t.Fatalf("%+v", k)
	}
	if fp := k.Fingerprint(); !strings.HasPrefix(fp, "SHA256:") || len(fp) != len("SHA256:")+43 {
		t.Fatalf("fingerprint %q", fp)
	}
}

func TestParsePublicKeyRefusals(t *testing.T) {
	good := ed25519Line(t, "x")
	fields := strings.Fields(good)
	cases := map[string]string{
		"-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----\n": "private key",
		"":                     "empty",
		good + "\n" + good:     "2 lines",
		"hello world":          "not an SSH public key",
		"ssh-ed25519":          "not an SSH public key",
		"ssh-ed25519 !!!!":     "not valid base64",
		"ssh-rsa " + fields[1]: "does not match its type",
		"ssh-ed25519 " + base64.StdEncoding.EncodeToString([]byte("\x00\x00\x00\x0bssh-ed25519")): "does not match",
		"<html>not a key</html>": "not an SSH public key",
	}
	for in, want := range cases {
		if _, err := Parse([]byte(in)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%.40q: err %v, want %q", in, err, want)
		}
	}
}

// TestFingerprintMatchesSSHKeygen checks forge's fingerprint against
// OpenSSH's own, for each key type ssh-keygen makes.
func TestFingerprintMatchesSSHKeygen(t *testing.T) {
	keygen, err := exec.LookPath("ssh-keygen")
	if err != nil {
		t.Skip("ssh-keygen not installed")
	}
	dir := t.TempDir()
	for _, typ := range []string{"ed25519", "ecdsa", "rsa"} {
		path := filepath.Join(dir, "id_"+typ)
		args := []string{"-q", "-t", typ, "-N", "", "-C", "test@" + typ, "-f", path}
		if typ == "rsa" {
			args = append(args, "-b", "2048")
		}
		if out, err := exec.Command(keygen, args...).CombinedOutput(); err != nil {
			t.Fatalf("ssh-keygen %s: %v\n%s", typ, err, out)
		}
		out, err := exec.Command(keygen, "-l", "-E", "sha256", "-f", path+".pub").Output()
		if err != nil {
			t.Fatal(err)
		}
		want := strings.Fields(string(out))[1]
		data, _ := os.ReadFile(path + ".pub")
		k, err := Parse(data)
		if err != nil {
			t.Fatalf("%s: %v", typ, err)
		}
		if k.Fingerprint() != want {
			t.Errorf("%s: fingerprint %s, ssh-keygen says %s", typ, k.Fingerprint(), want)
		}
		priv, _ := os.ReadFile(path)
		if _, err := Parse(priv); err == nil || !strings.Contains(err.Error(), "private key") {
			t.Errorf("%s private key: %v", typ, err)
		}
		if !bytes.Contains(data, []byte("test@"+typ)) || k.Comment != "test@"+typ {
			t.Errorf("comment %q", k.Comment)
		}
	}
}
