// Package docgen writes forge's reference documentation from its cobra
// command tree: a man page per command (docs/man/forge-*.1) and a markdown
// page per command (docs/reference/forge_*.md). The output depends only on
// the tree, never on the clock, the machine or the environment, so it can
// be committed and checked for staleness (TestDocsUpToDate).
//
// Regenerate with:
//
//	go run ./tools/gendocs
//
// It is not linked into forge itself: cobra/doc pulls in a markdown
// library forge has no use for at run time.
package docgen

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/cobra/doc"
)

// RegenerateCommand is the one command that brings docs/ up to date.
const RegenerateCommand = "go run ./tools/gendocs"

// date is the man pages' date. It is fixed, so the pages are reproducible;
// move it when the documentation changes a lot.
var date = time.Date(2026, time.January, 1, 0, 0, 0, 0, time.UTC)

// Generate writes the man pages to dir/man and the markdown reference to
// dir/reference, removing pages of commands that no longer exist.
func Generate(root *cobra.Command, dir string) error {
	pages, err := Pages(root)
	if err != nil {
		return err
	}
	for _, sub := range []string{"man", "reference"} {
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
			return err
		}
		old, err := filepath.Glob(filepath.Join(dir, sub, "forge*"))
		if err != nil {
			return err
		}
		for _, p := range old {
			if _, ok := pages[filepath.Join(sub, filepath.Base(p))]; !ok {
				if err := os.Remove(p); err != nil {
					return err
				}
			}
		}
	}
	for name, content := range pages {
		if err := os.WriteFile(filepath.Join(dir, name), content, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// Pages renders every page, keyed by its path under docs/ ("man/forge.1",
// "reference/forge_issue_close.md").
func Pages(root *cobra.Command) (map[string][]byte, error) {
	pages := map[string][]byte{}
	topics := helpTopics(root)
	var walk func(c *cobra.Command) error
	walk = func(c *cobra.Command) error {
		if !c.IsAvailableCommand() && c != root || c.IsAdditionalHelpTopicCommand() {
			return nil
		}
		c.DisableAutoGenTag = true
		base := strings.ReplaceAll(c.CommandPath(), " ", "-")
		var man bytes.Buffer
		header := &doc.GenManHeader{Title: strings.ToUpper(base), Section: "1", Date: &date, Source: "forge", Manual: "forge manual"}
		if err := doc.GenMan(c, header, &man); err != nil {
			return fmt.Errorf("man page of %s: %w", c.CommandPath(), err)
		}
		if c == root {
			for _, t := range topics {
				fmt.Fprintf(&man, ".SH %s\n.PP\n.nf\n%s\n.fi\n", t.section, roffEscape(t.text))
			}
		}
		pages["man/"+base+".1"] = man.Bytes()

		var md bytes.Buffer
		if err := doc.GenMarkdownCustom(c, &md, func(s string) string { return s }); err != nil {
			return fmt.Errorf("reference page of %s: %w", c.CommandPath(), err)
		}
		if c == root {
			for _, t := range topics {
				fmt.Fprintf(&md, "\n## %s\n\n```\n%s\n```\n", t.title, t.text)
			}
		}
		pages["reference/"+strings.ReplaceAll(c.CommandPath(), " ", "_")+".md"] = md.Bytes()
		for _, sub := range c.Commands() {
			if err := walk(sub); err != nil {
				return err
			}
		}
		return nil
	}
	return pages, walk(root)
}

// topic is a `forge help TOPIC` page, shown in forge(1) as a section.
type topic struct{ section, title, text string }

// helpTopics finds the hidden help-topic commands (`forge help
// environment`, `forge help exit-codes`) whose text belongs in forge(1)'s
// ENVIRONMENT and EXIT STATUS sections.
func helpTopics(root *cobra.Command) []topic {
	var out []topic
	for _, t := range []topic{{"ENVIRONMENT", "Environment", "environment"}, {"EXIT STATUS", "Exit codes", "exit-codes"}, {"FORMATTING", "Formatting output", "formatting"}} {
		for _, c := range root.Commands() {
			if c.Name() == t.text && c.Hidden {
				t.text = strings.TrimSpace(c.Long)
				out = append(out, t)
			}
		}
	}
	return out
}

// roffEscape makes text safe inside .nf/.fi: backslashes doubled, and a
// line starting with . or ' guarded so roff does not read it as a request.
func roffEscape(s string) string {
	s = strings.ReplaceAll(s, `\`, `\e`)
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, ".") || strings.HasPrefix(l, "'") {
			lines[i] = `\&` + l
		}
	}
	return strings.Join(lines, "\n")
}
