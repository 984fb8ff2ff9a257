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
	"completion/completion.go write":            "a completion script: the shell reads it",
	"help_topics.go addHelpTopics":              "a help topic: forge's own text",
	// forge api: on a terminal its Out is a text.Writer (sanitizing the
	// stream as it goes), piped it is the exact answer.
	"api/api.go failure":       "forge api: the body of a failed answer, through the text.Writer on a terminal",
	"api/api.go writeHead":     "forge api --include: the head, through the text.Writer on a terminal",
	"api/paginate.go writeOne": "forge api: the answer, through the text.Writer on a terminal",
	"api/paginate.go add":      "forge api --paginate --slurp: the separator, forge's own",
	"api/paginate.go close":    "forge api --paginate --slurp: the closing bracket, forge's own",
	// Only piped: a terminal gets the rendered view instead.
	"run/view.go writePlain": "run view piped: the exact record for scripts (a terminal gets renderRun)",
	"run/watch.go write":     "run watch piped: a line per change for scripts (a terminal gets the screen)",
	// Screens drawn with forge's own escapes; what they show is Styled
	// or sanitized where it is made.
	"run/screen.go enter":          "run watch: the alternate screen's escapes",
	"run/screen.go leave":          "run watch: the alternate screen's escapes",
	"run/screen.go draw":           "run watch: the Styled lines of renderRun, and cursor escapes",
	"run/explain.go explainRun":    "run explain: the answer into markdown.NewStream on a terminal (it sanitizes), exact piped",
	"run/explain.go Close":         "run explain: the newline that ends the answer",
	"image/progress.go event":      "image push piped: digests forge computed, sizes",
	"image/progress.go drawLocked": "image push on a terminal: the progress lines (digests, sizes, Styled states) and cursor escapes",
	"image/progress.go update":     "image pull/copy: the progress line (a reference, which name.ParseReference admits without controls; sizes) and its escape",
	"image/progress.go finish":     "image pull/copy: erasing the progress line",
	// The chat session's terminal is in raw mode: its out and errOut turn
	// each newline into CRLF. What they print is Styled (cs.Dim and
	// cs.Gray sanitize on a terminal) or an error through
	// cmdcore.ErrorMessage.
	"chat/session.go sessionIO":    "chat session: the banner through the raw-mode terminal's CRLF writer",
	"chat/session.go runSession":   "chat session: notes and errors through the raw-mode CRLF writer",
	"chat/session.go turn":         "chat session: the usage line (numbers) through the raw-mode CRLF writer",
	"chat/context.go setUpContext": "chat: notes (forge's words, through cs.Dim) to the session's stderr",
	"chat/input.go readMessage":    "chat: the line editor's own output on the raw-mode terminal",
	"chat/render.go drawPreview":   "chat: the reply's preview line, Styled (v.dim), and its escape",
	"chat/render.go clearPreview":  "chat: erasing the preview line",
}

// TestPrintingGoesThroughTheStreams: a command prints on its streams
// through IOStreams.Printf and its kin, which sanitize every argument on
// a terminal, never with fmt.Fprint* or io.WriteString to a writer that
// is not a local buffer (Out, ErrOut, os.Stdout, os.Stderr, or a stream
// handed on as a parameter or a field), nor Write on a stream — a call
// that would have to remember to sanitize; it never makes an iostreams.Styled of anything but a
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
func c(w io.Writer, sb *strings.Builder, x string) {
	fmt.Fprintf(w, "%s\n", x)
	fmt.Fprintf(sb, "%s\n", x)
	buf := &bytes.Buffer{}
	fmt.Fprintln(buf, x)
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
	want := []string{"3 a", "4 a", "6 a", "7 a", "8 a", "9 a", "11 a", "12 a", "15 c"}
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
		buffers := buffersIn(fd)
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
					switch {
					case len(call.Args) == 0:
					case isStream(call.Args[0], aliases):
						report(pkg.Name + "." + fun.Sel.Name + " to " + exprString(call.Args[0]))
					case !isBuffer(call.Args[0], buffers):
						report(pkg.Name + "." + fun.Sel.Name + " to " + exprString(call.Args[0]) + ", a writer that may be a stream handed on")
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

// buffersIn names the in-memory buffers of fd (a strings.Builder or a
// bytes.Buffer declared there, or a parameter pointing at one): text
// written to them is printed, if at all, by a later call this check sees.
func buffersIn(fd *ast.FuncDecl) map[string]bool {
	names := map[string]bool{}
	isBufType := func(e ast.Expr) bool {
		if st, ok := e.(*ast.StarExpr); ok {
			e = st.X
		}
		sel, ok := e.(*ast.SelectorExpr)
		if !ok {
			return false
		}
		pkg, _ := sel.X.(*ast.Ident)
		return pkg != nil && (pkg.Name == "strings" && sel.Sel.Name == "Builder" || pkg.Name == "bytes" && sel.Sel.Name == "Buffer")
	}
	for _, f := range fd.Type.Params.List {
		if isBufType(f.Type) {
			for _, n := range f.Names {
				names[n.Name] = true
			}
		}
	}
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.ValueSpec:
			if n.Type != nil && isBufType(n.Type) {
				for _, id := range n.Names {
					names[id.Name] = true
				}
			}
		case *ast.AssignStmt:
			for i, r := range n.Rhs {
				if u, ok := r.(*ast.UnaryExpr); ok && u.Op == token.AND {
					r = u.X
				}
				if cl, ok := r.(*ast.CompositeLit); ok && isBufType(cl.Type) && i < len(n.Lhs) {
					if id, ok := n.Lhs[i].(*ast.Ident); ok {
						names[id.Name] = true
					}
				}
			}
		}
		return true
	})
	return names
}

// isBuffer reports whether e is one of buffers, or its address.
func isBuffer(e ast.Expr, buffers map[string]bool) bool {
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
		e = u.X
	}
	id, ok := e.(*ast.Ident)
	return ok && buffers[id.Name]
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
