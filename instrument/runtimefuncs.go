package instrument

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"strings"

	"github.com/dave/dst"
	"github.com/dave/dst/decorator"
)

// Package reflect (and internal/reflectlite) leaves some of its work to
// functions the Go runtime implements for it: copying a value of a type
// (Value.Set, reflect.Copy), map lookups and updates, channel operations.
// They have no body in the package, so their accesses and synchronization
// get no hook of their own. Under go build -race the runtime annotates
// them (reflect_typedmemmove's raceWriteObjectPC and raceReadObjectPC,
// the map functions' reads and writes of the map, the channel functions'
// acquire and release); here each call is replaced by a function literal
// that records the same before or around the call:
//
//	typedmemmove(t, dst, src)
//
// becomes
//
//	func(p0 *abi.Type, p1, p2 unsafe.Pointer) {
//		racegenrt.WriteRange(p1, p0.Size_, site)
//		racegenrt.ReadRange(p2, p0.Size_, site)
//		typedmemmove(p0, p1, p2)
//	}(t, dst, src)
//
// which evaluates the arguments as the call did.
//
// The same device orders the callers of internal/synctest's Run and Wait
// (called by testing/synctest) after the goroutines of the bubble, which
// the Go runtime does under go build -race (runtime/synctest.go): each
// call is followed by AcquireAll.

// runtimeFuncModels are the models, by "importpath.name", as the body of
// the function literal: %[1]s is the call of the function with the
// literal's parameters p0, p1, ..., %[2]s the runtime's qualifier and
// %[3]s the site.
var runtimeFuncModels = map[string]string{
	"reflect.typedmemmove":              modelCopy,
	"internal/reflectlite.typedmemmove": modelCopy,
	"reflect.typedslicecopy": `n := uintptr(min(p1.Len, p2.Len)) * p0.Size_
	%[2]sWriteRange(p1.Data, n, %[3]s)
	%[2]sReadRange(p2.Data, n, %[3]s)
	return %[1]s`,
	"reflect.mapaccess":           modelMapRead,
	"reflect.mapaccess_faststr":   modelMapRead,
	"reflect.maplen":              `%[2]sRead(p0, 1, %[3]s); return %[1]s`,
	"internal/reflectlite.maplen": `%[2]sRead(p0, 1, %[3]s); return %[1]s`,
	"reflect.mapassign0":          modelMapWrite,
	"reflect.mapassign_faststr0":  modelMapWrite,
	"reflect.mapdelete":           modelMapWrite,
	"reflect.mapdelete_faststr":   modelMapWrite,
	"reflect.mapclear":            modelMapWrite,
	"reflect.chanclose":           `%[2]sChanPreClose(p0, %[3]s); %[1]s`,
	"reflect.chansend0": `h := %[2]sChanPreSend(p0, %[3]s, nil)
	ok := %[1]s
	if ok {
		h.PostSend()
	}
	return ok`,
	"reflect.chanrecv": `h := %[2]sChanPreRecv(p0, nil)
	selected, received := %[1]s
	if selected {
		h.PostRecv()
	}
	return selected, received`,
	"internal/synctest.Run":  `%[1]s; %[2]sAcquireAll()`,
	"internal/synctest.Wait": `%[1]s; %[2]sAcquireAll()`,
}

const (
	modelCopy = `%[2]sWriteRange(p1, p0.Size_, %[3]s)
	%[2]sReadRange(p2, p0.Size_, %[3]s)
	%[1]s`
	modelMapRead  = `%[2]sRead(p1, 1, %[3]s); return %[1]s`
	modelMapWrite = `%[2]sWrite(p1, 1, %[3]s); %[1]s`
)

// runtimeFunc rewrites x, the call a whose arguments are rewritten, if it
// calls a function of runtimeFuncModels, and returns nil otherwise.
func (fr *fileRewriter) runtimeFunc(x *dst.CallExpr, a *ast.CallExpr) dst.Expr {
	fn, ok := fr.calleeObj(a.Fun).(*types.Func)
	if !ok || fn.Pkg() == nil || a.Ellipsis.IsValid() {
		return nil
	}
	model, ok := runtimeFuncModels[fn.Pkg().Path()+"."+fn.Name()]
	if !ok {
		return nil
	}
	name := fn.Name()
	if fn.Pkg() != fr.pkg {
		q, found := fr.importNames()[fn.Pkg().Path()]
		if !found || q == "." || q == "_" {
			return nil
		}
		name = q + "." + name
	}
	sig := fn.Type().(*types.Signature)
	var params, args []string
	for i := 0; i < sig.Params().Len(); i++ {
		t, ok := fr.typeString(sig.Params().At(i).Type())
		if !ok {
			return nil
		}
		params = append(params, fmt.Sprintf("p%d %s", i, t))
		args = append(args, fmt.Sprintf("p%d", i))
	}
	var results []string
	for i := 0; i < sig.Results().Len(); i++ {
		t, ok := fr.typeString(sig.Results().At(i).Type())
		if !ok {
			return nil
		}
		results = append(results, t)
	}
	call := fmt.Sprintf("%s(%s)", name, strings.Join(args, ", "))
	body := fmt.Sprintf(model, call, fr.rtName+".", fmt.Sprintf("%#x", fr.newSite(a, false)))
	src := fmt.Sprintf("func(%s) (%s) {\n\t%s\n}", strings.Join(params, ", "), strings.Join(results, ", "), body)
	e, err := parser.ParseExpr(src)
	if err != nil {
		panic(fmt.Sprintf("%s: the model of %s does not parse: %v\n%s", fr.fset.Position(a.Pos()), fn.Name(), err, src))
	}
	lit, err := decorator.NewDecorator(token.NewFileSet()).DecorateNode(e)
	if err != nil {
		panic(fmt.Sprintf("%s: %v", fr.fset.Position(a.Pos()), err))
	}
	if err := checkHookCalls(lit, fr.rtName); err != nil {
		panic(fmt.Sprintf("%s: the model of %s: %v", fr.fset.Position(a.Pos()), fn.Name(), err))
	}
	fr.rtUsed = true
	n := &dst.CallExpr{Fun: lit.(dst.Expr), Args: x.Args}
	moveDecs(n, x)
	return n
}

// typeString spells t as the file being rewritten can, and reports
// whether it can.
func (fr *fileRewriter) typeString(t types.Type) (string, bool) {
	imports := fr.importNames()
	ok := true
	s := types.TypeString(t, func(p *types.Package) string {
		if p == fr.pkg {
			return ""
		}
		name, found := imports[p.Path()]
		if !found {
			ok = false
		}
		return name
	})
	return s, ok
}
