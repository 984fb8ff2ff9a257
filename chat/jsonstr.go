package chat

import (
	"errors"
	"unicode/utf16"
	"unicode/utf8"
)

var (
	errNotString    = errors.New("not a JSON string")
	errUnterminated = errors.New("unterminated JSON string")
	errBadEscape    = errors.New("bad escape in JSON string")
	errTrailing     = errors.New("data after the JSON string")
)

// appendJSONString decodes the JSON string literal in src (surrounded by
// optional white space) and appends its value to dst. It is the delta
// event's decoder: encoding/json would allocate several times per event.
// Control characters inside the string are accepted as they are, so a
// string a server wrapped onto several "data:" lines (joined with LF)
// still decodes.
func appendJSONString(dst, src []byte) ([]byte, error) {
	i := skipSpace(src, 0)
	if i == len(src) || src[i] != '"' {
		return dst, errNotString
	}
	i++
	for {
		// Copy the run up to the next quote or backslash in one go.
		j := i
		for j < len(src) && src[j] != '"' && src[j] != '\\' {
			j++
		}
		dst = append(dst, src[i:j]...)
		if j == len(src) {
			return dst, errUnterminated
		}
		if src[j] == '"' {
			if skipSpace(src, j+1) != len(src) {
				return dst, errTrailing
			}
			return dst, nil
		}
		// A backslash escape.
		if j+1 == len(src) {
			return dst, errUnterminated
		}
		i = j + 2
		switch src[j+1] {
		case '"', '\\', '/':
			dst = append(dst, src[j+1])
		case 'b':
			dst = append(dst, '\b')
		case 'f':
			dst = append(dst, '\f')
		case 'n':
			dst = append(dst, '\n')
		case 'r':
			dst = append(dst, '\r')
		case 't':
			dst = append(dst, '\t')
		case 'u':
			r, ok := hex4(src, i)
			if !ok {
				return dst, errBadEscape
			}
			i += 4
			if utf16.IsSurrogate(r) {
				// A surrogate pair is two escapes; a lone half becomes
				// U+FFFD, as encoding/json does.
				r2, ok := rune(-1), false
				if i+6 <= len(src) && src[i] == '\\' && src[i+1] == 'u' {
					r2, ok = hex4(src, i+2)
				}
				if dec := utf16.DecodeRune(r, r2); ok && dec != utf8.RuneError {
					r = dec
					i += 6
				} else {
					r = utf8.RuneError
				}
			}
			dst = utf8.AppendRune(dst, r)
		default:
			return dst, errBadEscape
		}
	}
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

func hex4(b []byte, i int) (rune, bool) {
	if i+4 > len(b) {
		return 0, false
	}
	var r rune
	for _, c := range b[i : i+4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		case c >= 'A' && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}
