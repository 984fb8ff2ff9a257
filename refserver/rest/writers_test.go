package rest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// statusWriters are the functions of this package that write a status:
// the writers every handler's answer goes through.
var statusWriters = map[string]bool{
	"writeJSON":          true,
	"writeRawJSON":       true,
	"writeGitError":      true,
	"jsonMuxError.Write": true, // the mux's own 404/405, in the Error shape
	"API.jobLogs":        true, // http.ServeContent: a log's Range answers (206, 416)
}

// statusCalls are net/http's functions that write a status.
var statusCalls = map[string]bool{"Error": true, "NotFound": true, "Redirect": true, "ServeContent": true, "ServeFile": true, "ServeFileFS": true}

// TestGitWritesNoStatus: the status of an answer is written by one of
// the writers only (a WriteHeader or http.Error anywhere else fails
// this test), and git's smart HTTP names no status at all: its handlers
// return errors, whose status statusOf decides.
func TestGitWritesNoStatus(t *testing.T) {
	fset := token.NewFileSet()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(fset, name, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		git := name == "githttp.go" || name == "shallow.go"
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			writer := statusWriters[funcName(fn)]
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				sel, ok := n.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				pkg, _ := sel.X.(*ast.Ident)
				fromHTTP := pkg != nil && pkg.Name == "http"
				switch {
				case !writer && (sel.Sel.Name == "WriteHeader" || fromHTTP && statusCalls[sel.Sel.Name]):
					t.Errorf("%s: %s writes a status: return an error (or write through one of the writers)", fset.Position(sel.Pos()), funcName(fn))
				case git && fromHTTP && strings.HasPrefix(sel.Sel.Name, "Status"):
					t.Errorf("%s: git's smart HTTP names the status %s: return an error whose kind statusOf maps", fset.Position(sel.Pos()), sel.Sel.Name)
				}
				return true
			})
		}
	}
}

// funcName is fn's name, with its receiver's type for a method.
func funcName(fn *ast.FuncDecl) string {
	if fn.Recv == nil || len(fn.Recv.List) == 0 {
		return fn.Name.Name
	}
	typ := fn.Recv.List[0].Type
	if star, ok := typ.(*ast.StarExpr); ok {
		typ = star.X
	}
	if id, ok := typ.(*ast.Ident); ok {
		return id.Name + "." + fn.Name.Name
	}
	return fn.Name.Name
}
