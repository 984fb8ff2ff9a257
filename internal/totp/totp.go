// Package totp computes time-based one-time passwords (RFC 6238) as an
// authenticator app does: HMAC-SHA1 over the count of 30-second steps
// since the Unix epoch, cut to six digits (RFC 4226's dynamic
// truncation). `forge demo` plays the user's app with it; forge links no
// OTP library for that one job.
package totp

import (
	"crypto/hmac"
	"crypto/sha1"
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Period is the length of a step, and Digits the length of a code, as
// authenticator apps and the reference server use them.
const (
	Period = 30 * time.Second
	Digits = 6
)

// Code is the code of secret (base32, as the otpauth:// URL and `forge
// auth 2fa setup` give it: any case, spaces and padding allowed) at t.
func Code(secret string, t time.Time) (string, error) {
	key, err := Key(secret)
	if err != nil {
		return "", err
	}
	return codeAt(key, uint64(t.Unix())/uint64(Period/time.Second), Digits), nil
}

// Key decodes a base32 secret (RFC 4648's alphabet) as a person would
// type it: upper or lower case, in groups separated by spaces, with or
// without "=" padding. Decoded here: encoding/base32 builds its encodings
// when the program starts, which every forge run would pay for.
func Key(secret string) ([]byte, error) {
	s := strings.ToUpper(strings.Join(strings.Fields(secret), ""))
	s = strings.TrimRight(s, "=")
	var key []byte
	var bits, n uint
	for _, c := range []byte(s) {
		i := strings.IndexByte("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", c)
		if i < 0 {
			return nil, errNotBase32
		}
		bits, n = bits<<5|uint(i), n+5
		if n >= 8 {
			key = append(key, byte(bits>>(n-8)))
			n -= 8
			bits &= 1<<n - 1
		}
	}
	// What is left are the last character's unused bits, fewer than five
	// as RFC 4648 writes them, and zero.
	if len(key) == 0 || n >= 5 || bits != 0 {
		return nil, errNotBase32
	}
	return key, nil
}

var errNotBase32 = errors.New("the two-factor secret is not base32")

// codeAt is RFC 4226's HOTP of key at counter, digits long.
func codeAt(key []byte, counter uint64, digits int) string {
	mac := hmac.New(sha1.New, key)
	var msg [8]byte
	binary.BigEndian.PutUint64(msg[:], counter)
	mac.Write(msg[:])
	sum := mac.Sum(nil)
	off := sum[len(sum)-1] & 0x0f
	bin := binary.BigEndian.Uint32(sum[off:off+4]) & 0x7fffffff
	mod := uint32(1)
	for range digits {
		mod *= 10
	}
	return fmt.Sprintf("%0*d", digits, bin%mod)
}
