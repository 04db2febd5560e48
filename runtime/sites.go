package runtime

import "sync"

// A site is a static access in instrumented source. The instrumenter
// numbers the sites of each package from 1 and passes
//
//	uint64(pkgKey)<<32 | index
//
// with SiteGlobal set in index for accesses to package-level variables,
// to the access hooks; pkgKey is the FNV-1a hash of the package's
// import path. Each package registers its table once, from a package-level
// variable initializer, with RegisterSites. Positions are looked up only
// when a race is reported.

// SiteGlobal is set in the index of a site that accesses a package-level
// variable. Globals are never freed, so their history survives GC cycles.
const SiteGlobal = 1 << 31

// SiteWord is set in the index of a site whose value is one component to
// go build -race however wide it is: a string, slice, interface or
// complex number. The language reads and writes such a value only whole,
// so every access of it covers its first word and a race on it is a race
// on that word: R and W record the word alone (hookSlow), an access of
// one granule rather than a range.
const SiteWord = 1 << 30

// siteFlags are the bits of a site's index that describe the access
// rather than name it.
const siteFlags = SiteGlobal | SiteWord

// siteID returns site without its flags: the site as site tables,
// profiles and FRESA's counters name it.
func siteID(site uint64) uint64 { return site &^ siteFlags }

// A Position is a site's place in the original source.
type Position struct {
	Func string // package-qualified function, as in a traceback
	File string
	Line int
	Col  int
}

var sites struct {
	mu     sync.Mutex
	raw    map[uint32]string
	parsed map[uint32][]Position
}

// RegisterSites records the site table of the package whose key is pkg.
// table has one line per site, in index order:
//
//	file:line:col<TAB>function
//
// where a line may leave out the file or the function of the line before
// it (see siteLines). The table is read only when a report or a profile
// needs it.
//
// It returns true so that it can initialize a blank variable.
func RegisterSites(pkg uint32, table string) bool {
	sites.mu.Lock()
	defer sites.mu.Unlock()
	if sites.raw == nil {
		sites.raw = make(map[uint32]string)
	}
	sites.raw[pkg] = table
	applyProfile(pkg, table)
	return true
}

// sitePosition returns the position of site, and false if it is unknown.
func sitePosition(site uint64) (Position, bool) {
	pkg, idx := uint32(site>>32), int(uint32(siteID(site)))
	sites.mu.Lock()
	defer sites.mu.Unlock()
	ps, ok := sites.parsed[pkg]
	if !ok {
		raw, ok := sites.raw[pkg]
		if !ok {
			return Position{}, false
		}
		ps = parseSites(raw)
		if sites.parsed == nil {
			sites.parsed = make(map[uint32][]Position)
		}
		sites.parsed[pkg] = ps
	}
	if idx < 1 || idx > len(ps) {
		return Position{}, false
	}
	return ps[idx-1], true
}

// parseSites returns the positions of the sites of a table.
func parseSites(raw string) []Position {
	lines := siteLines(raw)
	ps := make([]Position, len(lines))
	for i, l := range lines {
		pos, fn, _ := cut(l, "\t")
		ps[i].Func = fn
		// file:line:col, where file may itself contain colons.
		rest, col, ok := cutLast(pos, ":")
		if !ok {
			ps[i].File = pos
			continue
		}
		file, line, ok := cutLast(rest, ":")
		if !ok {
			ps[i].File = rest
			ps[i].Line, _ = parseInt(col)
			continue
		}
		ps[i].File = file
		ps[i].Line, _ = parseInt(line)
		ps[i].Col, _ = parseInt(col)
	}
	return ps
}

// siteLines returns the lines of a site table, one per site, each in the
// form file:line:col<TAB>function. In the table a line leaves out the
// file it shares with the line before it (the line then begins with the
// colon of :line:col) and the function it shares with it (nothing then
// follows the tab); siteLines puts them back.
func siteLines(table string) []string {
	if hasSuffix(table, "\n") {
		table = table[:len(table)-1]
	}
	lines := split(table, "\n")
	var file, fn string
	for i, l := range lines {
		pos, f, _ := cut(l, "\t")
		whole := true
		if i > 0 && hasPrefix(pos, ":") {
			pos, whole = file+pos, false
		}
		if i > 0 && f == "" {
			f, whole = fn, false
		}
		if !whole {
			lines[i] = pos + "\t" + f
		}
		file, fn = fileOf(pos), f
	}
	return lines
}

// fileOf returns the file of a position file:line:col.
func fileOf(pos string) string {
	if rest, _, ok := cutLast(pos, ":"); ok {
		if file, _, ok := cutLast(rest, ":"); ok {
			return file
		}
	}
	return pos
}
