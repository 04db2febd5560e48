package runtime

// The detector formats its reports and messages by appending to byte
// slices, with the few conversions below, rather than with fmt, strconv
// and encoding/json: a package the detector imports cannot be
// instrumented (closure_test.go), and these are all it needs of them.

const hexDigits = "0123456789abcdef"

// appendUint appends the decimal form of v.
func appendUint(b []byte, v uint64) []byte {
	var buf [20]byte
	i := len(buf)
	for {
		i--
		buf[i] = byte('0' + v%10)
		v /= 10
		if v == 0 {
			break
		}
	}
	return append(b, buf[i:]...)
}

// appendInt appends the decimal form of v, as strconv.AppendInt(b, v, 10).
func appendInt(b []byte, v int64) []byte {
	if v < 0 {
		// -v overflows for the smallest int64; its uint64 does not.
		return appendUint(append(b, '-'), -uint64(v))
	}
	return appendUint(b, uint64(v))
}

// appendHex appends v in lower-case hexadecimal, padded with zeros to at
// least width digits: fmt's %0*x.
func appendHex(b []byte, v uint64, width int) []byte {
	var buf [16]byte
	i := len(buf)
	for {
		i--
		buf[i] = hexDigits[v&0xf]
		v >>= 4
		if v == 0 {
			break
		}
	}
	for n := len(buf) - i; n < width; n++ {
		b = append(b, '0')
	}
	return append(b, buf[i:]...)
}

// appendJSONString appends s as a JSON string exactly as encoding/json
// encodes a string field with HTML escaping on (json.Encoder's default):
// quotes, backslashes and control characters are escaped, <, > and & are
// written as \u003c, \u003e and \u0026, U+2028 and U+2029 as \u2028 and
// \u2029, and each byte that is not part of valid UTF-8 as \ufffd.
func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < 0x80 {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := decodeRune(s[i:])
		switch {
		case size == 0:
			// Not valid UTF-8: one byte becomes the replacement character.
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i++
			start = i
			continue
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// decodeRune decodes the UTF-8 encoding at the start of s, which must not
// be empty, and returns the rune and its length, or size 0 if s does not
// start with a valid encoding. A range loop decodes by the same rules as
// package unicode/utf8, but yields U+FFFD both for invalid bytes and for
// an encoded U+FFFD; the two are told apart by the bytes.
func decodeRune(s string) (r rune, size int) {
	for _, c := range s {
		r = c
		break
	}
	const replacement = "\uFFFD"
	switch {
	case r == '\uFFFD' && !hasPrefix(s, replacement):
		return r, 0
	case r < 0x80:
		return r, 1
	case r < 0x800:
		return r, 2
	case r < 0x10000:
		return r, 3
	}
	return r, 4
}
