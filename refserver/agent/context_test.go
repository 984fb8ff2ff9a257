package agent

import (
	"strings"
	"testing"
)

func TestModelReadsAttachedContext(t *testing.T) {
	msg := "````forge-context run:57\n" +
		"CI run 57 (CI #2) on main: completed, failure\n" +
		"job build (ID 8): success\n" +
		"@@ job build (success): log @@\n" +
		"warning: build error budget is fine\n" +
		"@@ job test (failure): log @@\n" +
		"[forge: cut 3 of 5 lines from the top to fit the token budget]\n" +
		"2026-01-02T03:04:05.000Z --- FAIL: TestX (0.00s)\n" +
		"2026-01-02T03:04:06.000Z ##[error]Process completed with exit code 1.\n" +
		"2026-01-02T03:04:07.000Z Cleaning up\n" +
		"```not the end\n" +
		"````\n\n" +
		"```forge-context file:go.mod\nFile go.mod\nmodule x\n```\n\n" +
		"Why did it fail?"
	for _, model := range []string{"ref-1", "ref-1-mini"} {
		reply := refModel(model == "ref-1")(nil, msg)
		for _, want := range []string{
			"You asked about **Why did it fail?**",
			"You attached `run:57` (CI run 57 (CI #2) on main: completed, failure): 10 lines, ending with ```` ```not the end ````.",
			"The run failed in job **test**; the last error line of its log is `2026-01-02T03:04:06.000Z ##[error]Process completed with exit code 1.`.",
			"Part of it was cut to fit (1 cut).",
			"You attached `file:go.mod` (File go.mod): 2 lines, ending with `module x`.",
		} {
			if !strings.Contains(reply, want) {
				t.Errorf("%s: reply lacks %q:\n%s", model, want, reply)
			}
		}
		if strings.Contains(reply, "job **build**") {
			t.Errorf("%s: a job that succeeded was named as failed:\n%s", model, reply)
		}
	}
	// An unclosed fence is not a block.
	if reply := refModel(false)(nil, "```forge-context run:1\nno end"); strings.Contains(reply, "You attached") {
		t.Errorf("unclosed block was read as context: %s", reply)
	}
}
