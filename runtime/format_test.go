package runtime

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The hand-written formatting must print what fmt, strconv and
// encoding/json printed before it: it is compared with them, and the
// reports with the code that made them with those packages.

func TestAppendInt(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	cases := []int64{0, 1, -1, 9, 10, 66, -66, math.MaxInt64, math.MinInt64, math.MinInt64 + 1}
	for range 10000 {
		cases = append(cases, int64(rng.Uint64())>>rng.IntN(64))
	}
	for _, v := range cases {
		if got, want := string(appendInt([]byte("x"), v)), "x"+strconv.FormatInt(v, 10); got != want {
			t.Errorf("appendInt(%d) = %q, want %q", v, got, want)
		}
	}
}

func TestAppendHex(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	cases := []uint64{0, 1, 0xf, 0x10, 0xc000012345, math.MaxUint64}
	for range 10000 {
		cases = append(cases, rng.Uint64()>>rng.IntN(64))
	}
	for _, v := range cases {
		for _, width := range []int{0, 1, 12, 16, 20} {
			if got, want := string(appendHex(nil, v, width)), fmt.Sprintf("%0*x", width, v); got != want {
				t.Errorf("appendHex(%#x, %d) = %q, want %q", v, width, got, want)
			}
		}
	}
}

func TestAppendJSONString(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	cases := []string{"", "plain", `"quoted" \back\slash`, "<a href=x>&amp;</a>", "tab\there\nnew\rret\bbs\fff\x00\x01\x1f\x7f",
		"héllo wörld ☃ 𝄞", "\u2028\u2029", "\ufffd", "\xff\xfe", "\xe2\x82", "\xed\xa0\x80", "\xf4\x90\x80\x80", "a\xc0\xafb"}
	for range 20000 {
		b := make([]byte, rng.IntN(12))
		for i := range b {
			switch rng.IntN(3) {
			case 0:
				b[i] = byte(rng.IntN(0x80))
			default:
				b[i] = byte(rng.IntN(0x100))
			}
		}
		cases = append(cases, string(b))
	}
	for _, s := range cases {
		want, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := appendJSONString(nil, s); !bytes.Equal(got, want) {
			t.Errorf("appendJSONString(%q) = %s, want %s", s, got, want)
		}
	}
}

// reportCases are races whose reports cover the formats' branches.
func reportCases() []race {
	stack := []frame{
		{Func: "main.worker.func1", File: "/src/proj/work.go", Line: 12, Off: 0x3c},
		{Func: "main.(*T).Run", File: "/src/proj/t <&> \"q\".go", Line: 7, Off: 0},
	}
	created := []frame{{Func: "main.main", File: "/src/proj/main.go", Line: 30, Off: 0x2f}}
	const key = 0x7e5f0001
	// Only the first line of a table can leave its function out.
	RegisterSites(key, "/src/proj/b.go:4:1\t\n/src/proj/racy.go:12:3\tproj.reader\n")
	site := func(i uint64) uint64 { return key<<32 | i }
	return []race{
		{
			addr: 0xc000012345,
			cur:  accessInfo{write: true, goid: 7, stack: stack, g: goroutineInfo{goid: 7, created: created}},
			prev: accessInfo{goid: 1, site: site(2), g: goroutineInfo{goid: 1}},
			when: 1764185000123456789,
		},
		{
			addr: 0x1234567890abcdef,
			cur:  accessInfo{either: true, goid: 0, stack: nil},
			prev: accessInfo{write: true, goid: 12, site: site(1), g: goroutineInfo{goid: 12, finished: true, createdBy: "created by net/http.(*Server).Serve in goroutine 5\n\t/go/src/net/http/server.go:3285 +0x4b4\n"}},
		},
		{
			addr: 8,
			cur:  accessInfo{goid: 3, stack: stack[:1], g: goroutineInfo{goid: 3, createdBy: "created by main.f\n"}},
			prev: accessInfo{write: false, goid: 9, g: goroutineInfo{goid: 9}},
			when: 951782400120000000, // 2000-02-29
		},
	}
}

func TestReportFormatsMatchFmt(t *testing.T) {
	for _, prefix := range []string{"", "/src/"} {
		opts.stripPathPrefix = prefix
		for i, r := range reportCases() {
			if got, want := string(appendText(nil, &r)), fmtText(&r); got != want {
				t.Errorf("case %d, strip %q: text report\n%s\nwant (fmt)\n%s", i, prefix, got, want)
			}
			if got, want := string(appendJSON(nil, &r)), jsonText(&r); got != want {
				t.Errorf("case %d, strip %q: JSON report\n%s\nwant (encoding/json)\n%s", i, prefix, got, want)
			}
		}
	}
	opts.stripPathPrefix = ""
}

// fmtText is the text report as fmt wrote it.
func fmtText(r *race) string {
	var b strings.Builder
	frames := func(fs []frame, offsets bool) {
		for _, f := range fs {
			fmt.Fprintf(&b, "  %s()\n      %s:%d", f.Func, strings.TrimPrefix(f.File, opts.stripPathPrefix), f.Line)
			if offsets {
				fmt.Fprintf(&b, " +0x%x", f.Off)
			}
			b.WriteByte('\n')
		}
	}
	name := func(goid int64) string {
		switch goid {
		case 0:
			return "unknown goroutine"
		case 1:
			return "main goroutine"
		}
		return "goroutine " + strconv.FormatInt(goid, 10)
	}
	b.WriteString("==================\nWARNING: DATA RACE\n")
	fmt.Fprintf(&b, "%s at 0x%012x by %s:\n", r.cur.op(), r.addr, name(r.cur.goid))
	frames(r.cur.stack, true)
	fmt.Fprintf(&b, "\nPrevious %s at 0x%012x by %s:\n", strings.ToLower(opName(r.prev.write)), r.addr, name(r.prev.goid))
	frames(r.prevFrames())
	for _, g := range []goroutineInfo{r.cur.g, r.prev.g} {
		if g.goid <= 1 {
			continue
		}
		state := "running"
		if g.finished {
			state = "finished"
		}
		fmt.Fprintf(&b, "\nGoroutine %d (%s) created at:\n", g.goid, state)
		if len(g.created) > 0 {
			frames(g.created, true)
		} else if g.createdBy != "" {
			lines := strings.Split(strings.TrimSpace(g.createdBy), "\n")
			fn := strings.TrimPrefix(lines[0], "created by ")
			if i := strings.Index(fn, " in goroutine"); i >= 0 {
				fn = fn[:i]
			}
			fmt.Fprintf(&b, "  %s()\n", fn)
			if len(lines) > 1 {
				fmt.Fprintf(&b, "      %s\n", strings.TrimPrefix(strings.TrimSpace(lines[1]), opts.stripPathPrefix))
			}
		}
	}
	b.WriteString("==================\n")
	return b.String()
}

// jsonText is the JSON report as encoding/json wrote it.
func jsonText(r *race) string {
	type jsonFrame struct {
		Func string `json:"func"`
		File string `json:"file"`
		Line int    `json:"line"`
	}
	type jsonAccess struct {
		Op        string      `json:"op"`
		Goroutine int64       `json:"goroutine"`
		Stack     []jsonFrame `json:"stack"`
	}
	strip := func(fs []frame) []jsonFrame {
		out := make([]jsonFrame, len(fs))
		for i, f := range fs {
			out[i] = jsonFrame{f.Func, strings.TrimPrefix(f.File, opts.stripPathPrefix), f.Line}
		}
		return out
	}
	var b strings.Builder
	json.NewEncoder(&b).Encode(struct {
		Addr     string     `json:"addr"`
		Time     time.Time  `json:"time"`
		Access   jsonAccess `json:"access"`
		Previous jsonAccess `json:"previous"`
	}{
		fmt.Sprintf("0x%012x", r.addr),
		time.Unix(0, r.when).UTC(),
		jsonAccess{strings.ToLower(r.cur.op()), r.cur.goid, strip(r.cur.stack)},
		jsonAccess{strings.ToLower(opName(r.prev.write)), r.prev.goid, strip(prevStack(r))},
	})
	return b.String()
}

func TestAppendTime(t *testing.T) {
	for _, ns := range []int64{
		0, 1, -1, 999999999, 1e9, 1764185000123456789, 951782400120000000, 951868799000000000,
		-9e18, 9e18, // years 1684 and 2255
		4102444800e9 + 500, // 2100-01-01, not a leap year
		-86400e9 * 365 * 70,
	} {
		want := time.Unix(0, ns).UTC().Format(time.RFC3339Nano)
		if got := string(appendTime(nil, ns)); got != want {
			t.Errorf("appendTime(%d) = %s, want %s", ns, got, want)
		}
	}
}

// prevStack is the earlier access's frames, as the report shows them.
func prevStack(r *race) []frame {
	fs, _ := r.prevFrames()
	return fs
}
