package registry

import (
	"bytes"
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base32"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/forgehq/forge/refserver/store"
)

// signer is the token service's key: an ECDSA P-256 key (tokens are ES256
// JWTs), a self-signed certificate for it — what a CNCF distribution
// registry's auth.token.rootcertbundle wants — and the key's libtrust key
// ID, which distribution 2.8 looks the key up by (the JWT's "kid").
type signer struct {
	key     *ecdsa.PrivateKey
	certPEM []byte
	kid     string
}

// loadOrCreateSigner reads token.key and token.crt from dir, creating them
// the first time, so tokens and a registry's trust in them survive a
// restart. With dir "" the key lives only in memory.
func loadOrCreateSigner(dir string) (*signer, error) {
	if dir == "" {
		return newSigner()
	}
	keyPath, certPath := filepath.Join(dir, "token.key"), filepath.Join(dir, "token.crt")
	keyPEM, kerr := os.ReadFile(keyPath)
	certPEM, cerr := os.ReadFile(certPath)
	if kerr == nil && cerr == nil {
		return parseSigner(keyPEM, certPEM)
	}
	if !errors.Is(kerr, os.ErrNotExist) && kerr != nil {
		return nil, kerr
	}
	s, err := newSigner()
	if err != nil {
		return nil, err
	}
	der, err := x509.MarshalECPrivateKey(s.key)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	keyPEM = pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: der})
	if err := store.WriteFileAtomic(keyPath, keyPEM, 0o600); err != nil {
		return nil, err
	}
	if err := store.WriteFileAtomic(certPath, s.certPEM, 0o644); err != nil {
		return nil, err
	}
	return s, nil
}

func newSigner() (*signer, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 62))
	if err != nil {
		return nil, err
	}
	now := time.Now()
	tmpl := &x509.Certificate{
		SerialNumber:          serial,
		Subject:               pkix.Name{CommonName: "forge registry token issuer"},
		NotBefore:             now.Add(-time.Hour),
		NotAfter:              now.AddDate(10, 0, 0),
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		BasicConstraintsValid: true,
		IsCA:                  true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, key.Public(), key)
	if err != nil {
		return nil, err
	}
	return finishSigner(key, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}))
}

func parseSigner(keyPEM, certPEM []byte) (*signer, error) {
	block, _ := pem.Decode(keyPEM)
	if block == nil {
		return nil, errors.New("token.key holds no PEM block")
	}
	key, err := x509.ParseECPrivateKey(block.Bytes)
	if err != nil {
		return nil, fmt.Errorf("token.key: %w", err)
	}
	cb, _ := pem.Decode(certPEM)
	if cb == nil {
		return nil, errors.New("token.crt holds no PEM block")
	}
	cert, err := x509.ParseCertificate(cb.Bytes)
	if err != nil {
		return nil, fmt.Errorf("token.crt: %w", err)
	}
	if !key.PublicKey.Equal(cert.PublicKey) {
		return nil, errors.New("token.crt does not belong to token.key")
	}
	return finishSigner(key, certPEM)
}

func finishSigner(key *ecdsa.PrivateKey, certPEM []byte) (*signer, error) {
	kid, err := libtrustKeyID(key.Public())
	if err != nil {
		return nil, err
	}
	return &signer{key: key, certPEM: certPEM, kid: kid}, nil
}

// libtrustKeyID is docker/libtrust's key fingerprint: the SHA-256 of the
// DER public key, truncated to 240 bits, in base32, as twelve groups of four
// joined by ':'. Distribution 2.8 matches a token's "kid" against it.
func libtrustKeyID(pub crypto.PublicKey) (string, error) {
	der, err := x509.MarshalPKIXPublicKey(pub)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(der)
	s := strings.TrimRight(base32.StdEncoding.EncodeToString(sum[:30]), "=")
	var b bytes.Buffer
	for i := 0; i < len(s); i += 4 {
		if i > 0 {
			b.WriteByte(':')
		}
		b.WriteString(s[i : i+4])
	}
	return b.String(), nil
}
