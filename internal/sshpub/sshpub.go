// Package sshpub reads OpenSSH public key lines (.pub files): it checks
// that data holds exactly one public key — refusing a private key with a
// message that says why — and computes its SHA256 fingerprint as
// ssh-keygen -l shows it. forge ssh-key add and the TUI's account view use
// it before anything is sent.
package sshpub

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"strings"
)

// Key is one OpenSSH public key line: "TYPE BASE64 [COMMENT]".
type Key struct {
	Type    string
	Blob    []byte
	Comment string
}

// DefaultFiles are the public keys tried, in order, in ~/.ssh when no file
// is named, as ssh-copy-id and gh do.
func DefaultFiles() []string { return []string{"id_ed25519.pub", "id_ecdsa.pub", "id_rsa.pub"} }

// knownType reports whether t is a key type OpenSSH writes to .pub files.
func knownType(t string) bool {
	switch t {
	case "ssh-ed25519", "ssh-rsa", "ecdsa-sha2-nistp256", "ecdsa-sha2-nistp384", "ecdsa-sha2-nistp521",
		"sk-ssh-ed25519@openssh.com", "sk-ecdsa-sha2-nistp256@openssh.com", "ssh-dss":
		return true
	}
	return false
}

// Parse checks that data holds exactly one public key line and decodes
// it, with an error that says what the data is instead: a private key,
// several keys, or not a key at all.
func Parse(data []byte) (*Key, error) {
	if bytes.Contains(data, []byte("PRIVATE KEY")) {
		return nil, fmt.Errorf("this is a private key, which must never leave your machine: give the public key (the .pub file beside it)")
	}
	var lines []string
	for _, l := range strings.Split(string(data), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			lines = append(lines, l)
		}
	}
	switch {
	case len(lines) == 0:
		return nil, fmt.Errorf("no public key in it (it is empty)")
	case len(lines) > 1:
		return nil, fmt.Errorf("it holds %d lines; give a .pub file with exactly one public key line", len(lines))
	}
	fields := strings.Fields(lines[0])
	if len(fields) < 2 || !knownType(fields[0]) {
		return nil, fmt.Errorf("it is not an SSH public key: expected a line like \"ssh-ed25519 AAAAC3... you@host\"")
	}
	blob, err := base64.StdEncoding.DecodeString(fields[1])
	if err != nil {
		return nil, fmt.Errorf("its key data is not valid base64: the file is damaged")
	}
	// The blob starts with the key type again, as an SSH string.
	if len(blob) < 4 {
		return nil, fmt.Errorf("its key data is truncated: the file is damaged")
	}
	n := binary.BigEndian.Uint32(blob)
	if uint64(n)+4 > uint64(len(blob)) || string(blob[4:4+n]) != fields[0] || len(blob) < 4+int(n)+16 {
		return nil, fmt.Errorf("its key data does not match its type %s: the file is damaged", fields[0])
	}
	return &Key{Type: fields[0], Blob: blob, Comment: strings.Join(fields[2:], " ")}, nil
}

// Fingerprint is OpenSSH's SHA256 fingerprint, as `ssh-keygen -l` prints.
func (k *Key) Fingerprint() string {
	sum := sha256.Sum256(k.Blob)
	return "SHA256:" + base64.RawStdEncoding.EncodeToString(sum[:])
}

// Line is the key as one authorized_keys line.
func (k *Key) Line() string {
	line := k.Type + " " + base64.StdEncoding.EncodeToString(k.Blob)
	if k.Comment != "" {
		line += " " + k.Comment
	}
	return line
}
