package redact

import (
	"encoding/base32"
	"strings"
	"testing"
)

func TestBase32(t *testing.T) {
	for _, s := range []string{"", "f", "fo", "foo", "foob", "fooba", "foobar", "registry-Secret-42"} {
		if got, want := base32Std([]byte(s)), base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString([]byte(s)); got != want {
			t.Errorf("base32Std(%q) = %q, want %q", s, got, want)
		}
	}
}

// TestSplitSecrets: a secret split by a soft hyphen or a zero-width space
// (raw, or in the <U+200B> notation forge mcp serve shows), spaced out,
// backwards or (held) in base32 is masked as it is whole. On main each
// passed the redactor.
func TestSplitSecrets(t *testing.T) {
	const held = "registry-Secret-42"
	const token = "fgt_AbCdEf0123456789AbCdEf"
	spaced := func(s string) string { return strings.Join(strings.Split(s, ""), " ") }
	r := New(held)
	for _, in := range []string{
		"pw regis\u00adtry-Sec\u200bret-42 end",
		"pw regis<U+00AD>try-Secret<U+200B>-42 end",
		"pw " + spaced(held) + " end",
		"pw " + reverse(held) + " end",
		"pw " + base32.StdEncoding.EncodeToString([]byte(held)) + " end",
		"pw " + strings.ToLower(base32.StdEncoding.EncodeToString([]byte("x"+held))) + " end",
		"tok fgt_AbCd\u00adEf0123\u200c456789AbCdEf end",
		"tok fgt_AbCdEf<U+2060>0123456789AbCdEf end",
		"tok " + spaced(token) + " end",
		"tok " + reverse(token) + " end",
	} {
		got := r.Text(in)
		if !strings.HasPrefix(got, in[:3]) || !strings.HasSuffix(got, " end") || !strings.Contains(got, Mask) ||
			strings.Contains(got, "Secret") || strings.Contains(got, "0123") || strings.Contains(got, "3210") || strings.Contains(got, "4 2") {
			t.Errorf("Text(%q) = %q", in, got)
		}
	}
	for _, plain := range []string{"a b c d e f g h", "I am a b-side fan", "x <U+200B> y", "soft\u00adhyphen in a word", "tgf_ is not a token"} {
		if got := r.Text(plain); got != plain {
			t.Errorf("Text(%q) = %q: ordinary text changed", plain, got)
		}
	}
}
