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

// appendTime appends the UTC time t, in nanoseconds since 1970, as
// time.Time.Format(time.RFC3339Nano) writes it: the fraction of a second
// without its trailing zeros, and none if it is zero.
func appendTime(b []byte, t int64) []byte {
	sec, nsec := t/1e9, t%1e9
	if nsec < 0 {
		sec, nsec = sec-1, nsec+1e9
	}
	days, rem := sec/86400, sec%86400
	if rem < 0 {
		days, rem = days-1, rem+86400
	}
	y, m, d := civil(days)
	b = appendPadded(b, y, 4)
	b = appendPadded(append(b, '-'), m, 2)
	b = appendPadded(append(b, '-'), d, 2)
	b = appendPadded(append(b, 'T'), rem/3600, 2)
	b = appendPadded(append(b, ':'), rem/60%60, 2)
	b = appendPadded(append(b, ':'), rem%60, 2)
	if nsec != 0 {
		var frac [9]byte
		for i := 8; i >= 0; i-- {
			frac[i] = byte('0' + nsec%10)
			nsec /= 10
		}
		n := 9
		for frac[n-1] == '0' {
			n--
		}
		b = append(append(b, '.'), frac[:n]...)
	}
	return append(b, 'Z')
}

// appendPadded appends v, which is not negative, in decimal with at
// least width digits.
func appendPadded(b []byte, v int64, width int) []byte {
	for p, n := int64(10), 1; n < width; p, n = p*10, n+1 {
		if v < p {
			b = append(b, '0')
		}
	}
	return appendUint(b, uint64(v))
}

// civil returns the proleptic Gregorian date of the day days after
// 1970-01-01 (Howard Hinnant's civil_from_days).
func civil(days int64) (y, m, d int64) {
	z := days + 719468
	era := z / 146097
	if z < 0 && z%146097 != 0 {
		era--
	}
	doe := z - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	y = yoe + era*400
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	d = doy - (153*mp+2)/5 + 1
	if mp < 10 {
		m = mp + 3
	} else {
		m = mp - 9
	}
	if m <= 2 {
		y++
	}
	return y, m, d
}
