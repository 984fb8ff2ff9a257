package totp

import (
	"encoding/base32"
	"testing"
	"time"

	pqtotp "github.com/pquerna/otp/totp"
)

// rfcKey is the SHA-1 seed of RFC 6238's test vectors (appendix B), the
// ASCII "12345678901234567890".
const rfcKey = "12345678901234567890"

// TestRFC6238Vectors: the SHA-1 rows of RFC 6238's appendix B, eight
// digits as the RFC gives them, and their last six, which is what Code
// returns for the base32 of the same seed.
func TestRFC6238Vectors(t *testing.T) {
	for _, v := range []struct {
		unix int64
		code string
	}{
		{59, "94287082"},
		{1111111109, "07081804"},
		{1111111111, "14050471"},
		{1234567890, "89005924"},
		{2000000000, "69279037"},
		{20000000000, "65353130"},
	} {
		if got := codeAt([]byte(rfcKey), uint64(v.unix)/30, 8); got != v.code {
			t.Errorf("T=%d: %s, want %s", v.unix, got, v.code)
		}
		secret := base32.StdEncoding.EncodeToString([]byte(rfcKey))
		got, err := Code(secret, time.Unix(v.unix, 0))
		if err != nil || got != v.code[2:] {
			t.Errorf("Code at T=%d: %q, %v, want %s", v.unix, got, err, v.code[2:])
		}
	}
}

// TestRFC4226Vectors: HOTP's own vectors (RFC 4226, appendix D), counters
// 0 to 9 of the same seed, six digits.
func TestRFC4226Vectors(t *testing.T) {
	want := []string{"755224", "287082", "359152", "969429", "338314", "254676", "287922", "162583", "399871", "520489"}
	for i, w := range want {
		if got := codeAt([]byte(rfcKey), uint64(i), 6); got != w {
			t.Errorf("counter %d: %s, want %s", i, got, w)
		}
	}
}

// TestKeyAsTyped: a secret typed in groups, in lower case, without its
// padding, is the same key; what is not base32 is an error.
func TestKeyAsTyped(t *testing.T) {
	want := base32.StdEncoding.EncodeToString([]byte(rfcKey)) // GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ
	a, err := Key(want)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"gezd gnbv gy3t qojq gezd gnbv gy3t qojq", "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ==="} {
		b, err := Key(s)
		if err != nil || string(a) != string(b) {
			t.Errorf("Key(%q) = %q, %v", s, b, err)
		}
	}
	for _, bad := range []string{"", "not base32!", "18"} {
		if _, err := Key(bad); err == nil {
			t.Errorf("Key(%q) took it", bad)
		}
	}
}

// TestAsTheServerComputesIt: for a secret the reference server makes
// (pquerna/otp, as refserver/rest does), Code is the code it accepts.
func TestAsTheServerComputesIt(t *testing.T) {
	key, err := pqtotp.Generate(pqtotp.GenerateOpts{Issuer: "forge", AccountName: "alice"})
	if err != nil {
		t.Fatal(err)
	}
	for _, at := range []time.Time{time.Unix(0, 0), time.Unix(1111111109, 0), time.Now()} {
		want, err := pqtotp.GenerateCode(key.Secret(), at)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := Code(key.Secret(), at); err != nil || got != want {
			t.Errorf("at %v: %q, %v, want %q", at, got, err, want)
		}
	}
}

// TestKeyAsEncodingBase32: Key decodes what encoding/base32 encodes, of
// every length; it refuses lengths RFC 4648 never writes (1, 3 or 6
// characters past a group of 8) and unused bits that are not zero.
func TestKeyAsEncodingBase32(t *testing.T) {
	enc := base32.StdEncoding.WithPadding(base32.NoPadding)
	for n := 1; n <= 40; n++ {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(i*37 + n)
		}
		got, err := Key(enc.EncodeToString(b))
		if err != nil || string(got) != string(b) {
			t.Errorf("%d bytes: %x, %v, want %x", n, got, err, b)
		}
	}
	for _, s := range []string{"A", "ABC", "ABCDEF", "GEZDGNBVA", "AB", "GEZDGNBVGY3TQOJ="} {
		if k, err := Key(s); err == nil {
			t.Errorf("Key(%q) = %x", s, k)
		}
	}
}
