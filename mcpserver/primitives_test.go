package mcpserver

import (
	"context"
	"strings"
	"testing"

	"github.com/forgehq/forge/mcpserver/mcpservertest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestResourcesAndPrompts: a repository's files are resources
// (repo://OWNER/REPO/contents/PATH), read and checked as repo_contents
// reads them; the prompts name the tools they use, and only those
// offered.
func TestResourcesAndPrompts(t *testing.T) {
	h := mcpservertest.NewWorld(t)
	if _, err := h.Srv.CommitFiles("alice/demo", "", map[string]string{"docs/guide.md": "# Guide <!-- kept: a file is data -->\n"}, "guide"); err != nil {
		t.Fatal(err)
	}
	s := serve(t, h)
	ctx := context.Background()
	var templates []string
	for rt, err := range s.ResourceTemplates(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		templates = append(templates, rt.URITemplate)
	}
	if strings.Join(templates, ",") != "repo://{owner}/{repo}/contents/{+path}" {
		t.Errorf("templates %v", templates)
	}
	res, err := s.ReadResource(ctx, &mcp.ReadResourceParams{URI: "repo://alice/demo/contents/docs/guide.md"})
	if err != nil || len(res.Contents) != 1 || res.Contents[0].Text != "# Guide <!-- kept: a file is data -->\n" {
		t.Fatalf("read: %v %+v", err, res)
	}
	dir, err := s.ReadResource(ctx, &mcp.ReadResourceParams{URI: "repo://alice/demo/contents/docs"})
	if err != nil || dir.Contents[0].Text != "guide.md\tfile\n" {
		t.Fatalf("read docs: %v %+v", err, dir)
	}
	if _, err := s.ReadResource(ctx, &mcp.ReadResourceParams{URI: "repo://alice/demo/contents/../../../../admin/users"}); err == nil || !strings.Contains(err.Error(), `"." or ".."`) {
		t.Errorf("a .. path: %v", err)
	}
	var names []string
	for p, err := range s.Prompts(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, p.Name)
	}
	if strings.Join(names, ",") != "explain_failing_run,review_pr,triage_issues" {
		t.Errorf("prompts %v", names)
	}
	got, err := s.GetPrompt(ctx, &mcp.GetPromptParams{Name: "review_pr", Arguments: map[string]string{"number": "7", "repo": "alice/demo"}})
	if err != nil || len(got.Messages) != 1 || !strings.Contains(got.Messages[0].Content.(*mcp.TextContent).Text, "Review pull request #7 of alice/demo: read pr_view") {
		t.Errorf("review_pr: %v %+v", err, got)
	}
	// Offered only with their tools.
	only := serve(t, h, toolsets("issues"))
	if caps := only.InitializeResult().Capabilities; caps.Resources != nil || caps.Prompts == nil {
		t.Errorf("issues only: resources %v, prompts %v", caps.Resources, caps.Prompts)
	}
}
