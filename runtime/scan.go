package runtime

// The few operations of package strings that the detector needs to read
// its options, its site tables, tracebacks and files under /proc and /sys
// (see format.go for why it does not import strings).

func hasPrefix(s, prefix string) bool {
	return len(s) >= len(prefix) && s[:len(prefix)] == prefix
}

func hasSuffix(s, suffix string) bool {
	return len(s) >= len(suffix) && s[len(s)-len(suffix):] == suffix
}

// index returns the index of the first instance of sep in s, or -1.
func index(s, sep string) int {
	for i := 0; i+len(sep) <= len(s); i++ {
		if s[i:i+len(sep)] == sep {
			return i
		}
	}
	return -1
}

// lastIndex returns the index of the last instance of sep in s, or -1.
func lastIndex(s, sep string) int {
	for i := len(s) - len(sep); i >= 0; i-- {
		if s[i:i+len(sep)] == sep {
			return i
		}
	}
	return -1
}

// cut is strings.Cut.
func cut(s, sep string) (before, after string, found bool) {
	if i := index(s, sep); i >= 0 {
		return s[:i], s[i+len(sep):], true
	}
	return s, "", false
}

// cutLast is cut at the last instance of sep.
func cutLast(s, sep string) (before, after string, found bool) {
	if i := lastIndex(s, sep); i >= 0 {
		return s[:i], s[i+len(sep):], true
	}
	return s, "", false
}

// isSpace is unicode.IsSpace: the white space characters of Unicode.
func isSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0x85, 0xA0,
		0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000:
		return true
	}
	return 0x2000 <= r && r <= 0x200A
}

// fields is strings.Fields: s split around runs of white space.
func fields(s string) []string {
	var fs []string
	start := -1
	for i, r := range s {
		switch {
		case isSpace(r) && start >= 0:
			fs = append(fs, s[start:i])
			start = -1
		case !isSpace(r) && start < 0:
			start = i
		}
	}
	if start >= 0 {
		fs = append(fs, s[start:])
	}
	return fs
}

// trimSpace removes ASCII white space from both ends of s: the text it is
// used on (tracebacks, files under /sys) has no other.
func trimSpace(s string) string {
	for len(s) > 0 && isSpace(rune(s[0])) && s[0] < 0x80 {
		s = s[1:]
	}
	for len(s) > 0 && isSpace(rune(s[len(s)-1])) && s[len(s)-1] < 0x80 {
		s = s[:len(s)-1]
	}
	return s
}

// split is strings.Split for a non-empty sep: the substrings of s
// between the instances of sep, one more than there are instances.
func split(s, sep string) []string {
	var parts []string
	for {
		before, after, found := cut(s, sep)
		parts = append(parts, before)
		if !found {
			return parts
		}
		s = after
	}
}

// cutPrefix is strings.CutPrefix.
func cutPrefix(s, prefix string) (after string, found bool) {
	if !hasPrefix(s, prefix) {
		return s, false
	}
	return s[len(prefix):], true
}
