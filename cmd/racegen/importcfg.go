package main

import (
	"bytes"
	"fmt"
	"os"
	"strings"
)

// An importCfg is the file the go command hands the compiler and the
// linker with -importcfg: for each import path, the archive that holds
// its export data and object code ("packagefile path=file"), and the
// import paths that vendoring or module replacement map to others
// ("importmap old=new"). Lines it does not interpret (modinfo, comments)
// are kept as they are.
type importCfg struct {
	lines       []string
	packageFile map[string]string
	importMap   map[string]string
}

// readImportCfg reads and parses the importcfg file name.
func readImportCfg(name string) (*importCfg, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("reading importcfg: %w", err)
	}
	c, err := parseImportCfg(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return c, nil
}

// parseImportCfg parses the contents of an importcfg file.
func parseImportCfg(data []byte) (*importCfg, error) {
	c := &importCfg{packageFile: map[string]string{}, importMap: map[string]string{}}
	for i, line := range strings.Split(strings.TrimRight(string(data), "\n"), "\n") {
		c.lines = append(c.lines, line)
		line = strings.TrimSpace(line)
		verb, args, _ := strings.Cut(line, " ")
		var m map[string]string
		switch verb {
		case "packagefile":
			m = c.packageFile
		case "importmap":
			m = c.importMap
		default:
			continue
		}
		k, v, ok := strings.Cut(args, "=")
		if !ok || k == "" || v == "" {
			return nil, fmt.Errorf("line %d: want %s path=value, have %q", i+1, verb, line)
		}
		m[k] = v
	}
	return c, nil
}

// addPackageFile adds a packagefile line for path unless the file
// already has one, and reports whether it added it.
func (c *importCfg) addPackageFile(path, file string) bool {
	if _, ok := c.packageFile[path]; ok {
		return false
	}
	c.packageFile[path] = file
	c.lines = append(c.lines, "packagefile "+path+"="+file)
	return true
}

// resolve returns the import path that path names, after importmap.
func (c *importCfg) resolve(path string) string {
	if p, ok := c.importMap[path]; ok {
		return p
	}
	return path
}

// bytes returns the file's contents.
func (c *importCfg) bytes() []byte {
	var b bytes.Buffer
	for _, l := range c.lines {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	return b.Bytes()
}
