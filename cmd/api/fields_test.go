package api

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/forgehq/forge/app/cmdutil/cmdcore"
)

func noExpand(s string) (string, error) { return s, nil }

func TestFieldsBuildJSONBody(t *testing.T) {
	t.Parallel()
	file := filepath.Join(t.TempDir(), "notes.md")
	if err := os.WriteFile(file, []byte("line 1\nline 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	raw := []string{"title=true", "labels[]=bug", "labels[]=ui", "meta[owner]=alice"}
	typed := []string{"draft=false", "count=12", "ratio=-1.5e3", "none=null", "zip=007", "body=@" + file,
		"stdin=@-", "meta[level]=3", "steps[][name]=build", "word=plain"}
	fields, err := parseFields(raw, typed, strings.NewReader("from stdin"), noExpand)
	if err != nil {
		t.Fatal(err)
	}
	body, err := bodyOf(fields)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := json.Marshal(body)
	want := `{"body":"line 1\nline 2\n","count":12,"draft":false,"labels":["bug","ui"],"meta":{"level":3,"owner":"alice"},` +
		`"none":null,"ratio":-1.5e3,"stdin":"from stdin","steps":[{"name":"build"}],"title":"true","word":"plain","zip":"007"}`
	if string(got) != want {
		t.Fatalf("body\n got %s\nwant %s", got, want)
	}
}

func TestFieldsInQuery(t *testing.T) {
	t.Parallel()
	fields, err := parseFields([]string{"state=all", "label[]=a b", "label[]=c"}, []string{"per_page=5"}, nil, noExpand)
	if err != nil {
		t.Fatal(err)
	}
	got, err := addQuery("repos/a/b/issues?x=1", fields)
	if err != nil || got != "repos/a/b/issues?x=1&label%5B%5D=a+b&label%5B%5D=c&per_page=5&state=all" {
		t.Fatalf("%q, %v", got, err)
	}
	nested, _ := parseFields([]string{"a[b]=c"}, nil, nil, noExpand)
	if _, err := addQuery("x", nested); cmdcore.ExitCode(err) != cmdcore.ExitUsage {
		t.Fatalf("nested field in a query: %v", err)
	}
}

func TestFieldErrors(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		raw, typed []string
		want       string
	}{
		{raw: []string{"novalue"}, want: `give a field as key=value`},
		{typed: []string{"=x"}, want: `give a field as key=value`},
		{raw: []string{"a[b=1"}, want: `bad key`},
		{raw: []string{"a]x=1"}, want: ``},
		{raw: []string{"[a]=1"}, want: `the key has no name`},
		{typed: []string{"f=@/does/not/exist"}, want: `no such file: /does/not/exist`},
		{typed: []string{"a=@-", "b=@-"}, want: `only one field can read standard input`},
	} {
		_, err := parseFields(c.raw, c.typed, strings.NewReader(""), noExpand)
		if c.want == "" {
			if err != nil {
				t.Errorf("%v %v: %v", c.raw, c.typed, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), c.want) || cmdcore.ExitCode(err) != cmdcore.ExitUsage {
			t.Errorf("%v %v: err %v, want usage error with %q", c.raw, c.typed, err, c.want)
		}
	}
	fields, _ := parseFields([]string{"a=1", "a[b]=2"}, nil, nil, noExpand)
	if _, err := bodyOf(fields); err == nil {
		t.Error("a value and an object under one key were accepted")
	}
	fields, _ = parseFields([]string{"a=1", "a[]=2"}, nil, nil, noExpand)
	if _, err := bodyOf(fields); err == nil {
		t.Error("a value and a list under one key were accepted")
	}
}
