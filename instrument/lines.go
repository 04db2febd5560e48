package instrument

import (
	"fmt"
	"go/token"

	"github.com/dave/dst"
)

// Rewriting adds statements and changes expressions, so the output's own
// lines and columns are not the original's. Every statement of the output,
// and every expression that starts a line, is preceded by a comment
//
//	/*line file:line:col*/
//
// naming the position of the original code it came from, which the
// compiler uses for the positions of everything that follows it. Panics,
// stack traces and the goroutine creation sites in race reports then point
// at the user's source.

// addLineDirectives annotates the rewritten file.
//
// Empty lines inside declarations are dropped first: the printer puts a
// comment before a node that follows an empty line on a line of its own,
// and the line break after the comment would then carry the position,
// one line before the node's.
func (fr *fileRewriter) addLineDirectives() {
	dst.Inspect(fr.file, func(n dst.Node) bool {
		switch n.(type) {
		case nil, *dst.File, *dst.FuncDecl, *dst.GenDecl:
			return true
		}
		d := n.Decorations()
		if d.Before == dst.EmptyLine {
			d.Before = dst.NewLine
		}
		if d.After == dst.EmptyLine {
			d.After = dst.NewLine
		}
		return true
	})
	dst.Inspect(fr.file, func(n dst.Node) bool {
		switch n := n.(type) {
		case *dst.BlockStmt:
			fr.annotateList(n.List)
		case *dst.CaseClause:
			fr.annotateList(n.Body)
		case *dst.CommClause:
			fr.annotateList(n.Body)
		case *dst.ValueSpec:
			if len(n.Values) > 0 {
				fr.annotate(n.Values[0])
			}
		case dst.Expr:
			if d := n.Decorations(); d.Before == dst.NewLine {
				fr.annotate(n)
			}
		}
		return true
	})
}

// annotateList annotates the statements of a list. Each statement starts
// a line, so that its comment is not left at the end of the previous
// line, where the line break after it would carry the position. That
// holds for a single statement too: go/printer keeps a short block on one
// line only if it fits in 100 columns, comments included, so otherwise the
// layout of the output would depend on the length of the file names in
// the comments, that is, on where the module is checked out.
func (fr *fileRewriter) annotateList(list []dst.Stmt) {
	for _, s := range list {
		if d := s.Decorations(); d.Before == dst.None {
			d.Before = dst.NewLine
		}
		fr.annotate(s)
	}
}

// annotate puts a line comment before n for its original position.
func (fr *fileRewriter) annotate(n dst.Node) {
	pos := fr.originalPos(n)
	if !pos.IsValid() {
		return
	}
	p := fr.fset.Position(pos)
	if p.Filename == "" || p.Line == 0 {
		return
	}
	// The printer puts a blank between the comment and the node, which
	// the column accounts for.
	col := p.Column - 1
	if col < 1 {
		col = 1
	}
	// The node's own comments go: after a // comment the printer would
	// start the node on a new line, which the directive would not name.
	n.Decorations().Start.Replace(fmt.Sprintf("/*line %s:%d:%d*/", p.Filename, p.Line, col))
}

// originalPos returns the position in the original of n: its own if the
// rewriter did not make it, the one recorded when it made it, or else that
// of the first original node inside it.
func (fr *fileRewriter) originalPos(n dst.Node) token.Pos {
	if a, ok := fr.dec.Ast.Nodes[n]; ok {
		return a.Pos()
	}
	if p, ok := fr.origin[n]; ok {
		return p
	}
	var pos token.Pos
	dst.Inspect(n, func(c dst.Node) bool {
		if pos.IsValid() || c == nil {
			return false
		}
		if a, ok := fr.dec.Ast.Nodes[c]; ok && a.Pos().IsValid() {
			pos = a.Pos()
			return false
		}
		return true
	})
	return pos
}
