package runtime

import "unsafe"

// The options' values are parsed here in the syntax of strconv.Atoi,
// strconv.ParseFloat and time.ParseDuration, which accept the same
// strings and give the same values (parse_test.go compares them), without
// importing those packages (see format.go).

var (
	errSyntax = errorString("invalid syntax")
	errRange  = errorString("value out of range")
)

// parseInt is strconv.Atoi on a 64-bit system: an optional sign and
// decimal digits.
func parseInt(s string) (int, error) {
	neg := false
	if s != "" && (s[0] == '+' || s[0] == '-') {
		neg = s[0] == '-'
		s = s[1:]
	}
	if s == "" {
		return 0, errSyntax
	}
	const limit = 1 << 63 // the magnitude of the smallest int64
	var n uint64
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, errSyntax
		}
		if n > limit/10 {
			return 0, errRange
		}
		n = n*10 + uint64(c-'0')
		if n > limit {
			return 0, errRange
		}
	}
	switch {
	case neg:
		return int(-int64(n)), nil // -(1<<63) wraps to itself
	case n == limit:
		return 0, errRange
	}
	return int(n), nil
}

// parseShare parses s as a number in [0, 1]: a rate or a share of time.
func parseShare(s string) (float64, error) {
	f, err := parseFloat(s)
	if err == nil && !(f >= 0 && f <= 1) {
		err = errorString("out of range [0, 1]")
	}
	return f, err
}

// parseFloat is strconv.ParseFloat(s, 64): decimal and hexadecimal
// floating-point literals in Go's syntax, with an optional sign and
// underscores between digits, and inf, infinity and nan in any case. The
// result is correctly rounded. Values too large for a float64 give ±Inf
// and errRange.
func parseFloat(s string) (float64, error) {
	if f, ok := specialFloat(s); ok {
		return f, nil
	}
	mant, exp, neg, trunc, hex, ok := readFloat(s)
	if !ok {
		return 0, errSyntax
	}
	var bits uint64
	var overflow bool
	switch {
	case hex:
		bits, overflow = hexFloatBits(mant, exp, trunc)
	default:
		if f, ok := exactFloat(mant, exp); ok && !trunc {
			bits = float64bits(f)
			break
		}
		var d decimal
		d.set(s)
		bits, overflow = d.floatBits()
	}
	if neg {
		bits |= 1 << 63
	}
	if overflow {
		return float64frombits(bits), errRange
	}
	return float64frombits(bits), nil
}

func float64bits(f float64) uint64     { return *(*uint64)(unsafe.Pointer(&f)) }
func float64frombits(b uint64) float64 { return *(*float64)(unsafe.Pointer(&b)) }

// specialFloat parses the whole of s as inf, infinity (with an optional
// sign) or nan, ignoring case.
func specialFloat(s string) (float64, bool) {
	const inf = 0x7FF0000000000000
	sign := uint64(0)
	body := s
	if body != "" && (body[0] == '+' || body[0] == '-') {
		if body[0] == '-' {
			sign = 1 << 63
		}
		body = body[1:]
	}
	switch lower := toLowerASCII(body); {
	case lower == "inf" || lower == "infinity":
		return float64frombits(inf | sign), true
	case lower == "nan" && len(body) == len(s):
		return float64frombits(inf | 1<<51 | 1), true // math.NaN()
	}
	return 0, false
}

func toLowerASCII(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

func lowerByte(c byte) byte { return c | ('x' - 'X') }

// readFloat reads the whole of s as a floating-point literal: the first
// 19 significant decimal digits (16 hexadecimal ones) in mant, trunc set
// if a non-zero digit was left out, and the power of 10 (of 2 for a
// hexadecimal literal) that mant is to be multiplied by in exp.
func readFloat(s string) (mant uint64, exp int, neg, trunc, hex, ok bool) {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	base, maxDigits, expChar := uint64(10), 19, byte('e')
	if i+2 < len(s) && s[i] == '0' && lowerByte(s[i+1]) == 'x' {
		base, maxDigits, expChar, hex = 16, 16, 'p', true
		i += 2
	}
	underscores, sawDot, sawDigits := false, false, false
	nd, ndMant, dp := 0, 0, 0
digits:
	for ; i < len(s); i++ {
		c := s[i]
		var v uint64
		switch {
		case c == '_':
			underscores = true
			continue
		case c == '.':
			if sawDot {
				break digits
			}
			sawDot = true
			dp = nd
			continue
		case '0' <= c && c <= '9':
			v = uint64(c - '0')
		case hex && 'a' <= lowerByte(c) && lowerByte(c) <= 'f':
			v = uint64(lowerByte(c)-'a') + 10
		default:
			break digits
		}
		sawDigits = true
		if v == 0 && nd == 0 { // a leading zero
			dp--
			continue
		}
		nd++
		if ndMant < maxDigits {
			mant = mant*base + v
			ndMant++
		} else if v != 0 {
			trunc = true
		}
	}
	if !sawDigits {
		return
	}
	if !sawDot {
		dp = nd
	}
	if hex {
		dp *= 4
		ndMant *= 4
	}
	if i < len(s) && lowerByte(s[i]) == expChar {
		i++
		esign := 1
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			if s[i] == '-' {
				esign = -1
			}
			i++
		}
		if i >= len(s) || s[i] < '0' || s[i] > '9' {
			return
		}
		e := 0
		for ; i < len(s) && ('0' <= s[i] && s[i] <= '9' || s[i] == '_'); i++ {
			if s[i] == '_' {
				underscores = true
			} else if e < 10000 { // enough to overflow or underflow any float
				e = e*10 + int(s[i]-'0')
			}
		}
		dp += e * esign
	} else if hex {
		return // a hexadecimal mantissa needs a p exponent
	}
	if i != len(s) || underscores && !underscoresOK(s) {
		return
	}
	if mant != 0 {
		exp = dp - ndMant
	}
	ok = true
	return
}

// underscoresOK reports whether every underscore in the literal s
// separates two digits, or a base prefix and a digit.
func underscoresOK(s string) bool {
	if s != "" && (s[0] == '+' || s[0] == '-') {
		s = s[1:]
	}
	saw := '^' // ^ at the start, 0 after a digit or prefix, _ after an underscore, ! otherwise
	i := 0
	hex := false
	if len(s) >= 2 && s[0] == '0' && (lowerByte(s[1]) == 'b' || lowerByte(s[1]) == 'o' || lowerByte(s[1]) == 'x') {
		i, saw, hex = 2, '0', lowerByte(s[1]) == 'x'
	}
	for ; i < len(s); i++ {
		c := s[i]
		switch {
		case '0' <= c && c <= '9' || hex && 'a' <= lowerByte(c) && lowerByte(c) <= 'f':
			saw = '0'
		case c == '_':
			if saw != '0' {
				return false
			}
			saw = '_'
		case saw == '_':
			return false
		default:
			saw = '!'
		}
	}
	return saw != '_'
}

// float64 layout.
const (
	mantBits = 52
	expBits  = 11
	expBias  = -1023
)

// exactFloat computes mant×10^exp with one correctly rounded floating-point
// operation on exact operands, when there is one: mant has at most 53
// bits and the power of ten is exact (at most 10^22).
func exactFloat(mant uint64, exp int) (float64, bool) {
	if mant>>(mantBits+1) != 0 {
		return 0, false
	}
	f := float64(mant)
	switch {
	case exp == 0:
		return f, true
	case exp > 0 && exp <= 15+22:
		if exp > 22 { // move zeros into the mantissa while it stays exact
			f *= pow10(exp - 22)
			exp = 22
		}
		if f > 1e15 {
			return 0, false
		}
		return f * pow10(exp), true
	case exp < 0 && exp >= -22:
		return f / pow10(-exp), true
	}
	return 0, false
}

// pow10 returns 10^n for 0 <= n <= 22, which a float64 holds exactly.
func pow10(n int) float64 {
	f := 1.0
	for ; n > 0; n-- {
		f *= 10
	}
	return f
}

// hexFloatBits rounds mant×2^exp to a float64, to nearest even; trunc
// says that non-zero bits below mant were dropped.
func hexFloatBits(mant uint64, exp int, trunc bool) (bits uint64, overflow bool) {
	const (
		maxExp = 1<<expBits + expBias - 2
		minExp = expBias + 1
	)
	exp += mantBits
	// Bring the mantissa to a leading 1 and mantBits more bits, plus two
	// rounding bits, the lower one sticky.
	for mant != 0 && mant>>(mantBits+2) == 0 {
		mant <<= 1
		exp--
	}
	if trunc {
		mant |= 1
	}
	for mant>>(mantBits+3) != 0 {
		mant = mant>>1 | mant&1
		exp++
	}
	for mant > 1 && exp < minExp-2 { // denormalize
		mant = mant>>1 | mant&1
		exp++
	}
	round := mant & 3
	mant >>= 2
	round |= mant & 1 // ties to even
	exp += 2
	if round == 3 {
		mant++
		if mant == 1<<(mantBits+1) {
			mant >>= 1
			exp++
		}
	}
	if mant>>mantBits == 0 { // denormal or zero
		exp = expBias
	}
	if exp > maxExp {
		mant = 1 << mantBits
		exp = maxExp + 1
		overflow = true
	}
	bits = mant&(1<<mantBits-1) | uint64((exp-expBias)&(1<<expBits-1))<<mantBits
	return bits, overflow
}

// A decimal is the exact value of a decimal literal, for the conversions
// that floating-point arithmetic cannot round correctly: 0.d×10^dp, d
// being nd decimal digits. Digits past the array's length are dropped,
// which trunc records; they matter only to break a tie.
const decimalDigits = 800

type decimal struct {
	d     [decimalDigits]byte // digits, most significant first, without leading zeros
	nd    int
	dp    int
	trunc bool
}

// set reads the literal s, which readFloat accepted as a decimal one.
func (a *decimal) set(s string) {
	i := 0
	if s[0] == '+' || s[0] == '-' {
		i++
	}
	sawDot := false
	for ; i < len(s); i++ {
		c := s[i]
		if c == '_' {
			continue
		}
		if c == '.' {
			sawDot = true
			a.dp = a.nd
			continue
		}
		if c < '0' || c > '9' {
			break
		}
		if c == '0' && a.nd == 0 {
			a.dp--
			continue
		}
		if a.nd < len(a.d) {
			a.d[a.nd] = c - '0'
			a.nd++
		} else if c != '0' {
			a.trunc = true
		}
	}
	if !sawDot {
		a.dp = a.nd
	}
	if i < len(s) { // the exponent
		i++
		esign := 1
		if s[i] == '+' || s[i] == '-' {
			if s[i] == '-' {
				esign = -1
			}
			i++
		}
		e := 0
		for ; i < len(s); i++ {
			if s[i] != '_' && e < 10000 {
				e = e*10 + int(s[i]-'0')
			}
		}
		a.dp += e * esign
	}
	a.trim()
}

// trim drops trailing zeros.
func (a *decimal) trim() {
	for a.nd > 0 && a.d[a.nd-1] == 0 {
		a.nd--
	}
	if a.nd == 0 {
		a.dp = 0
	}
}

// maxShift is the largest shift by which shiftRight and shiftLeft can
// multiply or divide without overflowing a uint64.
const maxShift = 60

// shift multiplies a by 2^k, or divides it by 2^-k.
func (a *decimal) shift(k int) {
	for ; k > maxShift; k -= maxShift {
		a.shiftLeft(maxShift)
	}
	for ; k < -maxShift; k += maxShift {
		a.shiftRight(maxShift)
	}
	switch {
	case k > 0:
		a.shiftLeft(uint(k))
	case k < 0:
		a.shiftRight(uint(-k))
	}
}

// shiftRight divides a by 2^k, by long division.
func (a *decimal) shiftRight(k uint) {
	r, w := 0, 0
	var n uint64
	// Read digits until the partial dividend reaches 2^k.
	for ; n>>k == 0; r++ {
		if r >= a.nd {
			if n == 0 {
				a.nd = 0
				return
			}
			for n>>k == 0 {
				n *= 10
				r++
			}
			break
		}
		n = n*10 + uint64(a.d[r])
	}
	a.dp -= r - 1
	mask := uint64(1)<<k - 1
	for ; r < a.nd; r++ {
		a.d[w] = byte(n >> k)
		w++
		n = (n&mask)*10 + uint64(a.d[r])
	}
	for n > 0 {
		if w < len(a.d) {
			a.d[w] = byte(n >> k)
			w++
		} else if n>>k > 0 {
			a.trunc = true
		}
		n = (n & mask) * 10
	}
	a.nd = w
	a.trim()
}

// shiftLeft multiplies a by 2^k: digit by digit from the last, with the
// carry, into a buffer with room for the at most 19 new digits.
func (a *decimal) shiftLeft(k uint) {
	var buf [decimalDigits + 20]byte
	w := len(buf)
	var n uint64
	for r := a.nd - 1; r >= 0; r-- {
		n += uint64(a.d[r]) << k
		w--
		buf[w] = byte(n % 10)
		n /= 10
	}
	for n > 0 {
		w--
		buf[w] = byte(n % 10)
		n /= 10
	}
	digits := buf[w:]
	a.dp += len(digits) - a.nd
	a.nd = copy(a.d[:], digits)
	for _, c := range digits[a.nd:] {
		if c != 0 {
			a.trunc = true
		}
	}
	a.trim()
}

// roundUp reports whether a is to be rounded up when cut to its first nd
// digits: ties go to even.
func (a *decimal) roundUp(nd int) bool {
	if nd < 0 || nd >= a.nd {
		return false
	}
	if a.d[nd] == 5 && nd+1 == a.nd { // exactly half, unless digits were dropped
		return a.trunc || nd > 0 && a.d[nd-1]%2 == 1
	}
	return a.d[nd] >= 5
}

// roundedInteger returns a rounded to the nearest integer, which must fit
// in 64 bits.
func (a *decimal) roundedInteger() uint64 {
	if a.dp > 20 {
		return ^uint64(0)
	}
	var n uint64
	i := 0
	for ; i < a.dp && i < a.nd; i++ {
		n = n*10 + uint64(a.d[i])
	}
	for ; i < a.dp; i++ {
		n *= 10
	}
	if a.roundUp(a.dp) {
		n++
	}
	return n
}

// powersOf2 gives, for n decimal digits before the point, a shift that
// keeps at least one: log2(10^n) rounded down, for small n.
var powersOf2 = [...]int{1, 3, 6, 9, 13, 16, 19, 23, 26}

// floatBits returns the float64 nearest to a, and whether it overflowed
// to infinity. It consumes a.
func (a *decimal) floatBits() (bits uint64, overflow bool) {
	exp := 0
	var mant uint64
	switch {
	case a.nd == 0:
		return 0, false
	case a.dp > 310: // beyond 1.8e308
		return uint64(1<<expBits-1) << mantBits, true
	case a.dp < -330: // below the smallest denormal, 4.9e-324
		return 0, false
	}
	// Scale by powers of two into [0.5, 1).
	for a.dp > 0 {
		n := 27
		if a.dp < len(powersOf2) {
			n = powersOf2[a.dp]
		}
		a.shift(-n)
		exp += n
	}
	for a.dp < 0 || a.dp == 0 && a.d[0] < 5 {
		n := 27
		if -a.dp < len(powersOf2) {
			n = powersOf2[-a.dp]
		}
		a.shift(n)
		exp -= n
	}
	exp-- // into [1, 2)
	// Below the smallest normal exponent, a denormal.
	if exp < expBias+1 {
		n := expBias + 1 - exp
		a.shift(-n)
		exp += n
	}
	if exp-expBias >= 1<<expBits-1 {
		return uint64(1<<expBits-1) << mantBits, true
	}
	a.shift(1 + mantBits)
	mant = a.roundedInteger()
	if mant == 2<<mantBits { // rounding carried into a new bit
		mant >>= 1
		exp++
		if exp-expBias >= 1<<expBits-1 {
			return uint64(1<<expBits-1) << mantBits, true
		}
	}
	if mant&(1<<mantBits) == 0 {
		exp = expBias
	}
	return mant&(1<<mantBits-1) | uint64((exp-expBias)&(1<<expBits-1))<<mantBits, false
}

// Durations are int64 nanoseconds.
const (
	microsecond = 1000
	millisecond = 1000 * microsecond
	second      = 1000 * millisecond
	minute      = 60 * second
	hour        = 60 * minute
)

// durationUnits are the units time.ParseDuration accepts.
var durationUnits = [...]struct {
	name string
	ns   uint64
}{
	{"ns", 1}, {"us", microsecond}, {"µs", microsecond}, {"μs", microsecond},
	{"ms", millisecond}, {"s", second}, {"m", minute}, {"h", hour},
}

// parseDuration is time.ParseDuration: a possibly signed sequence of
// decimal numbers with optional fractions, each with a unit, such as
// "15ms", "1.5h" or "2h45m"; "0" needs no unit.
func parseDuration(s string) (int64, error) {
	invalid := errorString("invalid duration")
	neg := false
	if s != "" && (s[0] == '-' || s[0] == '+') {
		neg = s[0] == '-'
		s = s[1:]
	}
	if s == "0" {
		return 0, nil
	}
	if s == "" {
		return 0, invalid
	}
	var d uint64
	for s != "" {
		if !(s[0] == '.' || '0' <= s[0] && s[0] <= '9') {
			return 0, invalid
		}
		// The integer part.
		var v uint64
		i := 0
		for ; i < len(s) && '0' <= s[i] && s[i] <= '9'; i++ {
			if v > 1<<63/10 {
				return 0, invalid
			}
			v = v*10 + uint64(s[i]-'0')
			if v > 1<<63 {
				return 0, invalid
			}
		}
		pre := i > 0
		s = s[i:]
		// The fraction: f/scale, digits past what f holds ignored.
		var f uint64
		scale := 1.0
		post := false
		if s != "" && s[0] == '.' {
			s = s[1:]
			overflow := false
			i := 0
			for ; i < len(s) && '0' <= s[i] && s[i] <= '9'; i++ {
				if overflow {
					continue
				}
				if f > (1<<63-1)/10 {
					overflow = true
					continue
				}
				y := f*10 + uint64(s[i]-'0')
				if y > 1<<63 {
					overflow = true
					continue
				}
				f = y
				scale *= 10
			}
			post = i > 0
			s = s[i:]
		}
		if !pre && !post {
			return 0, invalid
		}
		i = 0
		for i < len(s) && s[i] != '.' && (s[i] < '0' || s[i] > '9') {
			i++
		}
		if i == 0 {
			return 0, errorString("missing unit in duration")
		}
		unit := uint64(0)
		for _, u := range durationUnits {
			if u.name == s[:i] {
				unit = u.ns
			}
		}
		if unit == 0 {
			return 0, errorString("unknown unit " + string(appendJSONString(nil, s[:i])) + " in duration")
		}
		s = s[i:]
		if v > 1<<63/unit {
			return 0, invalid
		}
		v *= unit
		if f > 0 {
			// As time does: a float64 is exact enough for fractions of
			// the largest unit.
			v += uint64(float64(f) * (float64(unit) / scale))
			if v > 1<<63 {
				return 0, invalid
			}
		}
		d += v
		if d > 1<<63 {
			return 0, invalid
		}
	}
	if neg {
		return -int64(d), nil
	}
	if d > 1<<63-1 {
		return 0, invalid
	}
	return int64(d), nil
}
