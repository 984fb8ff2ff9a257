package output

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/internal/iostreams"
	"github.com/spf13/cobra"
)

var fixedNow = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

func init() { now = func() time.Time { return fixedNow } }

func sampleTable(ios *iostreams.IOStreams) *Table {
	t := NewTable(ios, "NUMBER", "TITLE", "STATE", "CREATED")
	t.Add("12")
	t.Add("Fix the\tlogin\nbutton")
	t.Add("open", Green)
	t.AddTime(fixedNow.Add(-3 * time.Hour))
	t.EndRow()
	t.Add("7")
	t.Add("Docs")
	t.Add("closed", Red)
	t.AddTime(fixedNow.Add(-50 * 24 * time.Hour))
	t.EndRow()
	return t
}

func TestTablePipedIsTSV(t *testing.T) {
	ios, _, out, _ := iostreams.Test()
	if err := sampleTable(ios).Render(); err != nil {
		t.Fatal(err)
	}
	want := "12\tFix the login button\topen\t2026-11-22T09:00:00Z\n" +
		"7\tDocs\tclosed\t2026-10-03T12:00:00Z\n"
	if out.String() != want {
		t.Fatalf("got:\n%q\nwant:\n%q", out.String(), want)
	}
}

func TestTableTTYIsAligned(t *testing.T) {
	ios, _, out, _ := iostreams.Test()
	ios.SetStdoutTTY(true)
	if err := sampleTable(ios).Render(); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(out.String(), "\n"), "\n")
	if len(lines) != 3 {
		t.Fatalf("want header + 2 rows, got %q", out.String())
	}
	if !strings.HasPrefix(lines[0], "NUMBER  TITLE") {
		t.Errorf("header = %q", lines[0])
	}
	col := strings.Index(lines[0], "STATE")
	for _, l := range lines[1:] {
		if strings.Index(l, "open") != col && strings.Index(l, "closed") != col {
			t.Errorf("STATE column not aligned at %d: %q", col, l)
		}
	}
	if !strings.Contains(lines[1], "about 3 hours ago") || strings.Contains(out.String(), "\x1b[") {
		t.Errorf("want relative time and no colour: %q", out.String())
	}
}

func TestTableTTYColourAndWidth(t *testing.T) {
	ios, _, out, _ := iostreams.Test()
	ios.SetStdoutTTY(true)
	ios.SetColorEnabled(true)
	ios.SetTerminalWidth(40)
	tb := NewTable(ios, "NAME", "DESCRIPTION")
	tb.Add("forge", Bold)
	tb.Add(strings.Repeat("long words ", 20))
	tb.EndRow()
	if err := tb.Render(); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "\x1b[") {
		t.Error("no colour with colour enabled")
	}
	for _, l := range strings.Split(strings.TrimRight(out.String(), "\n"), "\n") {
		if w := len([]rune(stripANSI(l))); w > 40 {
			t.Errorf("line wider than 40 columns (%d): %q", w, l)
		}
	}
	if !strings.Contains(out.String(), "…") {
		t.Error("truncated cell has no ellipsis")
	}
}

func stripANSI(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == 0x1b {
			for i < len(s) && s[i] != 'm' {
				i++
			}
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func exporterFor(args ...string) (*Exporter, error) {
	cmd := &cobra.Command{Use: "x", RunE: func(*cobra.Command, []string) error { return nil }}
	e := AddJSONFlags(cmd, "number", "title", "state")
	cmd.SetArgs(args)
	return e, cmd.ParseFlags(args)
}

const issuesJSON = `[{"number":1,"title":"a","state":"open","extra":{"deep":true}},{"number":2,"title":"b","state":"closed","extra":null}]`

func TestExporterModes(t *testing.T) {
	tests := []struct {
		name string
		args []string
		tty  bool
		want string
	}{
		{"all fields pass through, unknown ones too", []string{"--json"}, false, `"extra": {`},
		{"selected fields", []string{"--json=number,state"}, false, "[\n  {\n    \"number\": 1,\n    \"state\": \"open\"\n  },\n  {\n    \"number\": 2,\n    \"state\": \"closed\"\n  }\n]\n"},
		{"field the server sent but forge does not know", []string{"--json=extra"}, false, `"deep": true`},
		{"jq strings are raw", []string{"--json=number,title", "--jq", ".[].title"}, false, "a\nb\n"},
		{"jq implies all fields", []string{"--jq", ".[1].number"}, false, "2\n"},
		{"jq objects compact when piped", []string{"--jq", ".[0].extra"}, false, "{\"deep\":true}\n"},
		{"jq objects indented on a terminal", []string{"--jq", ".[0].extra"}, true, "{\n  \"deep\": true\n}\n"},
		{"template", []string{"--template", `{{range .}}#{{.number}} {{.title}}{{"\n"}}{{end}}`}, false, "#1 a\n#2 b\n"},
		{"template helpers", []string{"--template", `{{join "," (pluck "state" .)}}`}, false, "open,closed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, err := exporterFor(tt.args...)
			if err != nil {
				t.Fatal(err)
			}
			if !e.Enabled() {
				t.Fatal("exporter not enabled")
			}
			if err := e.Validate(); err != nil {
				t.Fatal(err)
			}
			ios, _, out, _ := iostreams.Test()
			ios.SetStdoutTTY(tt.tty)
			if err := e.Write(ios, []byte(issuesJSON)); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(out.String(), tt.want) {
				t.Fatalf("got:\n%s\nwant to contain:\n%s", out.String(), tt.want)
			}
		})
	}
}

func TestExporterErrors(t *testing.T) {
	e, _ := exporterFor("--json=number,bogus")
	ios, _, _, _ := iostreams.Test()
	err := e.Write(ios, []byte(issuesJSON))
	var ue *cmdcore.UsageError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), "available fields: extra, number, state, title") {
		t.Fatalf("unknown field error = %v", err)
	}
	for _, args := range [][]string{{"--jq", ".[ | bad"}, {"--template", "{{.x"}, {"--jq", ".", "--template", "x"}} {
		e, _ := exporterFor(args...)
		if err := e.Validate(); !errors.As(err, &ue) {
			t.Errorf("%v: Validate = %v, want a usage error", args, err)
		}
	}
	if e, _ := exporterFor(); e.Enabled() {
		t.Error("exporter enabled without flags")
	}
}

func TestNormalizeJSONArgs(t *testing.T) {
	root := &cobra.Command{Use: "forge"}
	root.PersistentFlags().String("profile", "", "")
	list := &cobra.Command{Use: "list", Run: func(*cobra.Command, []string) {}}
	AddJSONFlags(list, "number", "state", "title")
	list.Flags().IntP("limit", "L", 30, "")
	list.Flags().BoolP("web", "w", false, "")
	// view takes at most one argument, tags exactly one.
	view := &cobra.Command{Use: "view", Run: func(*cobra.Command, []string) {}, Args: cobra.MaximumNArgs(1)}
	AddJSONFlags(view, "name")
	view.Flags().StringP("repo", "R", "", "")
	view.Flags().BoolP("web", "w", false, "")
	tags := &cobra.Command{Use: "tags", Run: func(*cobra.Command, []string) {}, Args: cobra.ExactArgs(1)}
	AddJSONFlags(tags, "name")
	issue := &cobra.Command{Use: "issue"}
	none := &cobra.Command{Use: "list", Run: func(*cobra.Command, []string) {}, Args: cobra.NoArgs}
	AddJSONFlags(none, "number")
	issue.AddCommand(none)
	root.AddCommand(list, view, tags, issue)
	cases := []struct{ in, want string }{
		{"list --json number,state --jq .", "list --json=number,state --jq ."},
		{"list --json number", "list --json=number"},
		{"list --json --limit 3", "list --json --limit 3"},
		{"list --json myrepo", "list --json myrepo"},
		{"list -- --json number", "list -- --json number"},
		// A field-shaped word the arguments have no room for is a field.
		{"issue list --json numbr", "issue list --json=numbr"},
		{"--profile dev issue list --json numbr -L 5", "--profile dev issue list --json=numbr -L 5"},
		{"view --json bogus alice/demo", "view --json=bogus alice/demo"},
		{"view -R alice/demo --json bogus", "view -R alice/demo --json bogus"},
		{"view alice/demo --json bogus", "view alice/demo --json=bogus"},
		{"view -wR alice/demo --json bogus other", "view -wR alice/demo --json=bogus other"},
		{"view --json demo", "view --json demo"},
		{"tags --json app", "tags --json app"},
		{"issue list --json 12", "issue list --json 12"},
		{"issue list --json a/b", "issue list --json a/b"},
	}
	for _, c := range cases {
		got := strings.Join(NormalizeJSONArgs(root, strings.Fields(c.in)), " ")
		if got != c.want {
			t.Errorf("%q -> %q, want %q", c.in, got, c.want)
		}
	}
}

func TestFormatTime(t *testing.T) {
	ts := fixedNow.Add(-90 * time.Minute)
	if got := FormatTime(ts, false); got != "2026-11-22T10:30:00Z" {
		t.Errorf("piped = %q", got)
	}
	if got := FormatTime(ts, true); got != "about 1 hour ago" {
		t.Errorf("tty = %q", got)
	}
	if FormatTime(time.Time{}, true) != "" {
		t.Error("zero time not empty")
	}
}

func TestTableNarrowTerminal(t *testing.T) {
	ios, _, out, _ := iostreams.Test()
	ios.SetStdoutTTY(true)
	ios.SetTerminalWidth(30)
	tb := NewTable(ios, "STATUS", "TITLE", "WORKFLOW", "BRANCH", "ID")
	tb.Add("completed")
	tb.Add("Add the login page")
	tb.Add("continuous-integration")
	tb.Add("feature/login")
	tb.Add("42")
	tb.EndRow()
	if err := tb.Render(); err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(strings.TrimRight(out.String(), "\n"), "\n") {
		if w := len([]rune(l)); w > 30 {
			t.Errorf("line wider than 30 columns (%d): %q", w, l)
		}
	}
	if !strings.Contains(out.String(), "42") {
		t.Errorf("the short ID column was cut: %q", out.String())
	}
}

// The template helpers read every form internal/timestamp reads, as the
// tables do: a zoneless time from a service broke timeago while the same
// record showed fine in a table.
func TestTemplateTimes(t *testing.T) {
	for _, in := range []string{
		`"2026-11-22T10:30:00Z"`, `"2026-11-22T10:30:00.123456+00:00"`, // RFC 3339, read before too
		`"2026-11-22T10:30:00"`, `"2026-11-22 10:30:00"`, `"2026-11-22T10:30:00.000000"`,
		`"2026-11-22 10:30:00 +0000 UTC"`, `"2026-11-22T10:30:00+0000"`, `1795343400`, `1795343400000`,
	} {
		e, err := exporterFor("--template", `{{timeago .t}}|{{timefmt "2006-01-02 15:04 MST" .t}}`)
		if err != nil {
			t.Fatal(err)
		}
		ios, _, out, _ := iostreams.Test()
		if err := e.Write(ios, []byte(`{"t":`+in+`}`)); err != nil {
			t.Fatal(err)
		}
		if want := "about 1 hour ago|2026-11-22 10:30 UTC"; out.String() != want {
			t.Errorf("%s: got %q, want %q", in, out.String(), want)
		}
	}
	// timefmt keeps the zone the service sent, as it did.
	e, _ := exporterFor("--template", `{{timefmt "15:04 -0700" .t}}`)
	ios, _, out, _ := iostreams.Test()
	if err := e.Write(ios, []byte(`{"t":"2026-11-22T11:30:00+01:00"}`)); err != nil || out.String() != "11:30 +0100" {
		t.Errorf("zone: got %q, %v", out.String(), err)
	}
	// What no reader reads is empty, not an error: a template only displays.
	for _, in := range []string{`"soon"`, `null`, `""`} {
		e, _ := exporterFor("--template", `[{{timeago .t}}|{{timefmt "2006" .t}}]`)
		ios, _, out, _ := iostreams.Test()
		if err := e.Write(ios, []byte(`{"t":`+in+`}`)); err != nil || out.String() != "[|]" {
			t.Errorf("%s: got %q, %v", in, out.String(), err)
		}
	}
}

// TestFieldsSanitizeOnTheTerminal: output.Fields sanitizes every value on
// a terminal, whatever the command hands it, and passes the exact data
// when piped.
func TestFieldsSanitizeOnTheTerminal(t *testing.T) {
	const hostile = "alice\x1b]52;c;cHduZWQ=\x07\u202e"
	for _, tty := range []bool{true, false} {
		ios, _, out, _ := iostreams.Test()
		ios.SetStdoutTTY(tty)
		kv := NewFields(ios)
		kv.Title("profile:", "work"+hostile)
		kv.Note("(not saved yet)")
		kv.Add("user", hostile, "(config file)")
		kv.Add("token", "")
		if err := kv.Render(ios.Out); err != nil {
			t.Fatal(err)
		}
		want := "profile: work" + hostile + "\n  (not saved yet)\nuser:  " + hostile + "  (config file)\ntoken: (not set)\n"
		if tty {
			want = strings.ReplaceAll(want, hostile, "alice^[]52;c;cHduZWQ=^G<U+202E>")
		}
		if out.String() != want {
			t.Errorf("tty %v:\n%q\nwant\n%q", tty, out.String(), want)
		}
	}
}
