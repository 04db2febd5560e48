package runtime

import (
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The hand-written parsers must accept exactly what the packages they
// stand for accept, with the same values: they are compared with them on
// tables of edge cases and on random strings built from the characters
// that matter.

var intCases = []string{
	"", "0", "-0", "+0", "7", "+7", "-7", "007", "66", "255", "256",
	"9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
	"18446744073709551616", "99999999999999999999x", "1_000", "0x10", " 1", "1 ", "+", "-", "--1", "1e3", "٣",
}

func TestParseInt(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	cases := slices.Clone(intCases)
	for range 20000 {
		cases = append(cases, randomString(rng, "0123456789+-_x ", 22))
	}
	for _, s := range cases {
		want, werr := strconv.Atoi(s)
		got, err := parseInt(s)
		if (err != nil) != (werr != nil) || werr == nil && got != want {
			t.Errorf("parseInt(%q) = %d, %v; strconv.Atoi gives %d, %v", s, got, err, want, werr)
		}
	}
}

var floatCases = []string{
	"", "0", "1", "0.5", ".5", "5.", ".", "+.5", "-0", "-0.0", "1e", "1e+", "1e-", "1e0", "1E-2",
	"0.01", "0.001", "0.1", "0.3", "0.7", "0.999999999999999999999", "1.0000000000000000001",
	"0.1000000000000000055511151231257827021181583404541015625",        // 0.1 exactly
	"0.1000000000000000055511151231257827021181583404541015624",        // just below
	"0.1000000000000000055511151231257827021181583404541015626",        // just above
	"0.30000000000000001665334536938165345685183517634868621826171875", // 0.3 exactly
	"2.2250738585072011e-308", "2.2250738585072012e-308", "4.9e-324", "2.4703282292062327e-324",
	"2.4703282292062328e-324", "1.7976931348623157e308", "1.7976931348623158e308", "1.8e308", "1e400",
	"-1e400", "1e-400", "123456789012345678901234567890", "9007199254740993", "9007199254740992.5",
	"1_000", "0.1_5", "_1", "1_", "1__0", "1e5_0", "1e_5",
	"0x1p-2", "0x_1p-2", "0x1_0p-8", "0x1", "0x.8p1", "0X1P-1", "0x1.fffffffffffff8p0", "0x1.fffffffffffff7p0",
	"0x1.00000000000008p0", "0x1.00000000000018p0", "0x1p-1074", "0x1p-1075", "0x1.8p-1075", "0x1p1024",
	"0x123456789abcdef0123p-70", "0x", "0xp1", "0x1p", "0x1p+",
	"inf", "+Inf", "-INF", "infinity", "-Infinity", "infin", "nan", "NaN", "+nan", "-nan", "nanx",
}

func TestParseFloat(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	cases := slices.Clone(floatCases)
	for range 30000 {
		cases = append(cases, randomString(rng, "0123456789.e-+_", 30))
	}
	for range 20000 {
		// Long mantissas near ties, the cases simple arithmetic gets
		// wrong.
		mant := strconv.FormatUint(rng.Uint64(), 10) + strconv.FormatUint(rng.Uint64(), 10)
		cases = append(cases, "0."+mant, mant+"e-"+strconv.Itoa(rng.IntN(340)), mant[:1+rng.IntN(len(mant))]+"5e"+strconv.Itoa(rng.IntN(40)-20))
	}
	for range 10000 {
		f := math.Float64frombits(rng.Uint64())
		cases = append(cases, strconv.FormatFloat(f, 'g', -1, 64), strconv.FormatFloat(f, 'x', -1, 64), strconv.FormatFloat(f, 'e', 25, 64))
	}
	for range 10000 {
		cases = append(cases, "0x"+randomString(rng, "0123456789abcdefABCDEF._", 20)+"p"+randomString(rng, "0123456789-+", 4))
	}
	for _, s := range cases {
		want, werr := strconv.ParseFloat(s, 64)
		got, err := parseFloat(s)
		wantSyntax := werr != nil && strings.Contains(werr.Error(), "invalid syntax")
		gotSyntax := err == errSyntax
		if wantSyntax != gotSyntax || (werr == nil) != (err == nil) {
			t.Errorf("parseFloat(%q) = %v, %v; strconv.ParseFloat gives %v, %v", s, got, err, want, werr)
			continue
		}
		if !wantSyntax && math.Float64bits(got) != math.Float64bits(want) && !(math.IsNaN(got) && math.IsNaN(want)) {
			t.Errorf("parseFloat(%q) = %v (%#x); strconv.ParseFloat gives %v (%#x)", s, got, math.Float64bits(got), want, math.Float64bits(want))
		}
	}
}

var durationCases = []string{
	"", "0", "+0", "-0", "1", "15ms", "1.5s", ".5s", "5.s", ".s", "-.s", "1h2m3s4ms5us6ns", "1.5h", "-1.5h",
	"5µs", "5μs", "5us", "5xs", "5", "s", "1s2", "9223372036854775807ns", "9223372036854775808ns",
	"-9223372036854775808ns", "2562047h47m16.854775807s", "2562047h47m16.854775808s", "1.0000000000000000001h",
	"0.0000000001s", "1.99999999999999999999999s", "100000000000000000000ns", "3.0000000000000000001ns",
}

func TestParseDuration(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	cases := slices.Clone(durationCases)
	for range 30000 {
		cases = append(cases, randomString(rng, "0123456789.-+hmsunµ", 16))
	}
	for _, s := range cases {
		want, werr := time.ParseDuration(s)
		got, err := parseDuration(s)
		if (err != nil) != (werr != nil) || werr == nil && got != int64(want) {
			t.Errorf("parseDuration(%q) = %d, %v; time.ParseDuration gives %d, %v", s, got, err, int64(want), werr)
		}
	}
}

func TestFields(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	cases := []string{"", " ", "a", " a  b ", "rate=0.5\twatch=1ms\n", "a\u00a0b\u2003c\u3000d\u0085e", "\xffa b\xfe", "a\u200bb"}
	for range 10000 {
		cases = append(cases, randomString(rng, "ab= \t\n\v\f\r\u0085\u00a0\u1680\u2000\u200a\u200b\u2028\u202f\u3000\xff", 12))
	}
	for _, s := range cases {
		if got, want := fields(s), strings.Fields(s); !slices.Equal(got, want) {
			t.Errorf("fields(%q) = %q, strings.Fields gives %q", s, got, want)
		}
	}
}

func TestSplit(t *testing.T) {
	for _, s := range []string{"", "a", "a\n", "\n", "a\n\nb", "\na\nb\n\n"} {
		if got, want := split(s, "\n"), strings.Split(s, "\n"); !slices.Equal(got, want) {
			t.Errorf("split(%q) = %q, strings.Split gives %q", s, got, want)
		}
	}
}

// randomString returns a string of up to n characters (runes) of chars.
func randomString(rng *rand.Rand, chars string, n int) string {
	rs := []rune(chars)
	var b strings.Builder
	for range rng.IntN(n + 1) {
		b.WriteRune(rs[rng.IntN(len(rs))])
	}
	return b.String()
}
