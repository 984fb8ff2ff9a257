package cmd

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// rawAllowed are the functions of cmd/ that write to a command's stream
// past IOStreams.Printf, each with the reason it must ("file func").
var rawAllowed = map[string]string{
	// Bytes for a program, not a person.
	"auth/gitcredential.go runGitCredentialGet": "git's credential protocol: git reads it byte for byte",
	// forge api: on a terminal its Out is a text.Writer (sanitizing the
	// stream as it goes), piped it is the exact answer.
	"api/api.go failure":       "forge api: the body of a failed answer, through the text.Writer on a terminal",
	"api/paginate.go writeOne": "forge api: the answer, through the text.Writer on a terminal",
	// The chat session's terminal is in raw mode: its errOut turns each
	// newline into CRLF. The banner is forge's words, its model's name
	// sanitized by cs.Gray.
	"chat/session.go sessionIO": "chat session: the banner through the raw-mode terminal's CRLF writer",
}

// TestPrintingGoesThroughTheStreams: a command prints on its streams
// through IOStreams.Printf and its kin, which sanitize every argument on
// a terminal, never with fmt.Fprint* (or io.WriteString, or Write) on Out,
// ErrOut, os.Stdout or os.Stderr — a call that would have to remember to
// sanitize; it never makes an iostreams.Styled of anything but a
// constant; and it styles what it prints with its stream's scheme
// (ColorScheme for Print*, ErrColorScheme for ErrPrint*). The exceptions
// are rawAllowed, each with its reason.
func TestPrintingGoesThroughTheStreams(t *testing.T) {
	used := map[string]bool{}
	var bad []string
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") ||
			strings.Contains(path, "testdata") {
			return err
		}
		fset := token.NewFileSet()
		file, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		for _, f := range rawPrints(fset, file) {
			key := filepath.ToSlash(path) + " " + f.fn
			if _, ok := rawAllowed[key]; ok {
				used[key] = true
				continue
			}
			bad = append(bad, fmt.Sprintf("%s:%d (%s): %s", path, f.line, f.fn, f.what))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(bad)
	for _, b := range bad {
		t.Errorf("%s: print through the streams' Printf/Println/ErrPrintf (iostreams), or allow it in rawAllowed with its reason", b)
	}
	for key := range rawAllowed {
		if !used[key] {
			t.Errorf("rawAllowed names %q, which writes nothing raw: drop it", key)
		}
	}
}

// TestRawPrintsAreFound: the check finds each form of a raw print.
func TestRawPrintsAreFound(t *testing.T) {
	const src = `package p
func a(ios *iostreams.IOStreams, x string) {
	fmt.Fprintf(ios.ErrOut, "%s\n", x)
	fmt.Fprintln(opts.IO.Out, x)
	errOut := ios.ErrOut
	fmt.Fprint(errOut, x)
	io.WriteString(os.Stdout, x)
	ios.Out.Write([]byte(x))
	_ = iostreams.Styled(x)
	cs := ios.ColorScheme()
	ios.ErrPrintf("%s\n", cs.Bold(x))
	ios.Printf("%s\n", ios.ErrColorScheme().Bold(x))
}
func b(ios *iostreams.IOStreams, x string) {
	var sb strings.Builder
	fmt.Fprintf(&sb, "%s", x)
	ios.Printf("%s\n", x)
	_ = iostreams.Styled("constant")
	_ = iostreams.Styled("a" + "b")
	cs := ios.ErrColorScheme()
	ios.ErrPrintf("%s\n", cs.Bold(x))
	ios.Println(ios.ColorScheme().Bold(x))
}
`
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range rawPrints(fset, file) {
		got = append(got, fmt.Sprintf("%d %s", f.line, f.fn))
	}
	want := []string{"3 a", "4 a", "6 a", "7 a", "8 a", "9 a", "11 a", "12 a"}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("found %v, want %v", got, want)
	}
}

type rawPrint struct {
	fn   string // the top-level function it is in
	line int
	what string
}

// rawPrints lists the raw writes to a command's stream in file: fmt's
// Fprint, Fprintf and Fprintln, io.WriteString, and a Write method, whose
// writer is X.Out, X.ErrOut, os.Stdout, os.Stderr or a variable assigned
// one of them in the same function; and conversions to iostreams.Styled
// of anything but a constant.
func rawPrints(fset *token.FileSet, file *ast.File) []rawPrint {
	var found []rawPrint
	for _, decl := range file.Decls {
		fd, ok := decl.(*ast.FuncDecl)
		if !ok || fd.Body == nil {
			continue
		}
		aliases := map[string]bool{}
		schemes := map[string]string{} // a ColorScheme's variable: the stream it styles for
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			if as, ok := n.(*ast.AssignStmt); ok && len(as.Lhs) == len(as.Rhs) {
				for i, r := range as.Rhs {
					id, ok := as.Lhs[i].(*ast.Ident)
					if !ok {
						continue
					}
					if isStream(r, nil) {
						aliases[id.Name] = true
					}
					if st := schemeOf(r); st != "" {
						schemes[id.Name] = st
					}
				}
			}
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			report := func(what string) {
				found = append(found, rawPrint{fn: fd.Name.Name, line: fset.Position(call.Pos()).Line, what: what})
			}
			switch fun := call.Fun.(type) {
			case *ast.SelectorExpr:
				pkg, _ := fun.X.(*ast.Ident)
				switch {
				case pkg != nil && pkg.Name == "fmt" && strings.HasPrefix(fun.Sel.Name, "Fprint"),
					pkg != nil && pkg.Name == "io" && fun.Sel.Name == "WriteString":
					if len(call.Args) > 0 && isStream(call.Args[0], aliases) {
						report(pkg.Name + "." + fun.Sel.Name + " to " + exprString(call.Args[0]))
					}
				case fun.Sel.Name == "Write" && isStream(fun.X, aliases):
					report(exprString(fun.X) + ".Write")
				case strings.HasPrefix(fun.Sel.Name, "Print") || strings.HasPrefix(fun.Sel.Name, "ErrPrint"):
					want := "stdout"
					if strings.HasPrefix(fun.Sel.Name, "Err") {
						want = "stderr"
					}
					if other := otherScheme(call.Args, schemes, want); other != "" {
						report(fun.Sel.Name + " with the " + other + " colour scheme (a scheme sanitizes by its own stream's terminal)")
					}
				case pkg != nil && pkg.Name == "iostreams" && fun.Sel.Name == "Styled":
					if len(call.Args) == 1 && !isConstant(call.Args[0]) {
						report("iostreams.Styled of " + exprString(call.Args[0]) + " (only the colour helpers, Sprintf and Doc make one)")
					}
				}
			}
			return true
		})
	}
	return found
}

// schemeOf is the stream a ColorScheme e styles for, when e is one:
// X.ColorScheme() stdout's, X.ErrColorScheme() stderr's.
func schemeOf(e ast.Expr) string {
	if call, ok := e.(*ast.CallExpr); ok {
		if sel, ok := call.Fun.(*ast.SelectorExpr); ok {
			switch sel.Sel.Name {
			case "ColorScheme":
				return "stdout"
			case "ErrColorScheme":
				return "stderr"
			}
		}
	}
	return ""
}

// otherScheme names the stream of a colour scheme used in args that is
// not want's, or "".
func otherScheme(args []ast.Expr, schemes map[string]string, want string) string {
	other := ""
	for _, a := range args {
		ast.Inspect(a, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			st := schemeOf(sel.X)
			if id, ok := sel.X.(*ast.Ident); ok {
				st = schemes[id.Name]
			}
			if st != "" && st != want {
				other = st
			}
			return true
		})
	}
	return other
}

// isStream reports whether e is a command's output stream.
func isStream(e ast.Expr, aliases map[string]bool) bool {
	switch e := e.(type) {
	case *ast.Ident:
		return aliases[e.Name]
	case *ast.SelectorExpr:
		if pkg, ok := e.X.(*ast.Ident); ok && pkg.Name == "os" {
			return e.Sel.Name == "Stdout" || e.Sel.Name == "Stderr"
		}
		return e.Sel.Name == "Out" || e.Sel.Name == "ErrOut"
	}
	return false
}

// isConstant reports whether e is a string literal or a sum of them.
func isConstant(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.BasicLit:
		return true
	case *ast.BinaryExpr:
		return isConstant(e.X) && isConstant(e.Y)
	case *ast.ParenExpr:
		return isConstant(e.X)
	}
	return false
}

func exprString(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name
	case *ast.SelectorExpr:
		return exprString(e.X) + "." + e.Sel.Name
	}
	return fmt.Sprintf("%T", e)
}
