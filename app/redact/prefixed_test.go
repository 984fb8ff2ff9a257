package redact

import (
	"fmt"
	"testing"
)

// TestPrefixedTokens: tokens of a service forge does not know, a word
// prefix and a random tail, are masked by their shape; ordinary
// identifiers of the same outline are not.
func TestPrefixedTokens(t *testing.T) {
	masked := map[string]string{
		"fetching secrets with vtok_ci_9fK2mQ7xZp4RtL8wB3nY6cV1 now":         "fetching secrets with vtok_ci_**** now",
		"using hsa_live_4eC39HqLyjWDarjtT1zdp7dc":                            "using hsa_live_****",
		"VAULT=vtok_ci_3f9a1c7e5b2d4f6a8c0e1b3d5f7a9c2e":                     "VAULT=vtok_ci_****",
		"key hsa_test_k2j4h6g8f0d1s3a5p7o9i1u3y5t7r9e2":                      "key hsa_test_****",
		"sk_live_51HqLyjWDarjtT1zdp7dcXyZ and rk_prod_Zx81kd0Qm2Lw9s7Tq4Vb6": "sk_live_**** and rk_prod_****",
	}
	for in, want := range masked {
		if got := prefixed(in); got != want {
			t.Errorf("prefixed(%q)\n got %q\nwant %q", in, got, want)
		}
	}
	var r *Redactor
	for _, s := range []string{
		"image sha256_e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
		"--- FAIL: test_TestHandleRequestV2Internal (0.01s)",
		"run go_test_TestParseRetryAfterWithHTTPDate",
		"build_20260102T030405Z_linux_amd64 done",
		"pod app_7d9f8b6c5d_x2k4p restarted",
		"user_id_12345678901234567890",
		"cache_key_node_modules_linux_x64_3f2a",
		"GOFLAGS=-mod=mod go_version_go1_22_5_linux_amd64",
		"my_variable_NameWithCamelCaseParts",
		"job build_a1b2c3d4e5f6a7b8c9d0e1f2a3b4 finished",
	} {
		if got := r.Text(s); got != s {
			t.Errorf("Text(%q) = %q, want it unchanged", s, got)
		}
	}
}

// BenchmarkPrefixed500Lines: the shape rule over 500 log lines that all
// hold underscores (snake_case names, test names), one in ten a token.
func BenchmarkPrefixed500Lines(b *testing.B) {
	lines := make([]string, 500)
	for i := range lines {
		lines[i] = fmt.Sprintf("2026-01-02T03:04:05.000Z === RUN   test_parse_config_%d/case_with_long_name_%d", i, i)
		if i%10 == 0 {
			lines[i] = "2026-01-02T03:04:05.000Z export VAULT=vtok_ci_9fK2mQ7xZp4RtL8wB3nY6cV1"
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, l := range lines {
			prefixed(l)
		}
	}
}
