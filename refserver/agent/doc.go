// Package agent is the reference implementation of the service's agent chat
// API, version 1: an http.Handler serving
//
//	POST {agent_url}/api/v1/chat         one reply with its token usage
//	POST {agent_url}/api/v1/chat/stream  the reply as Server-Sent Events
//	GET  {agent_url}/api/v1/usage        the key's tier, quota and usage
//	GET  {agent_url}/api/v1/models       the models (an addition, see below)
//
// and a Go API (Service) to create keys, set tiers and quotas, slow the
// stream down and replace the model, for tests and `forge serve`.
//
// # Choices where the specification says "not shown"
//
// Keys start with the fixed prefix "agk_" (KeyPrefix) and are sent as
// "Authorization: Bearer KEY" or "X-API-Key: KEY". A missing or unknown key
// is 401 with {"error": ...} and "WWW-Authenticate: Bearer".
//
// The request body is JSON:
//
//	{"model": "ref-1", "message": "text", "history": [{"role": "user", "content": "..."}, {"role": "assistant", "content": "..."}]}
//
// message is required and must not be blank (400). model is optional and
// defaults to DefaultModel; an unknown model is 400 naming the valid ones.
// history is optional; each item's role is "user" or "assistant" and its
// content a string (400 otherwise). Unknown fields are ignored. Bodies over
// 1 MiB are 413; a body that is not JSON is 400.
//
// Models: "ref-1" (the default; a few paragraphs of markdown with a list and
// a code span) and "ref-1-mini" (two sentences). Both are deterministic: the
// same model, message and history give the same reply, and the reply names
// the turn number and the first message of the conversation, so a test can
// tell that the history arrived. GET /api/v1/models lists them as
// {"default": "ref-1", "models": ["ref-1", "ref-1-mini"]}; the specification
// has no such endpoint, and clients must not need it.
//
// # Attached context
//
// A client attaches context (an issue, a CI run, a file, a commit) by
// putting fenced blocks before the user's text in message, as forge does
// (the format is defined once, in package chat's documentation):
//
//	```forge-context run:57
//	CI run 57 (CI #2) on main: completed, failure
//	job test (ID 9): failure; failed step 3: Complete job
//	@@ job test (failure): log @@
//	[forge: cut 120 of 160 lines from the top to fit the token budget]
//	2026-01-02T03:04:05.000Z ##[error]Process completed with exit code 1.
//	```
//
//	Why did this run fail?
//
// The opening line is a fence of three or more backticks, "forge-context",
// a space and the REF; the block ends at a line holding the same fence
// alone; its first line is the title; "@@ TITLE @@" lines start sections.
// Both models take the blocks out of the message, answer the text left
// around them (the topic, word and character counts are of that text),
// and say of each block its REF, title, line count and last line. For a
// "@@ job NAME (CONCLUSION)...@@" section whose conclusion is not success
// they name the job and quote the last line of it that says error, fail
// or panic; a "[forge: cut ...]" line is mentioned as a cut. So a test can
// tell that the context arrived whole. A fence that is never closed is not
// a block. The fingerprint covers the whole message, blocks included.
//
// Tokens: text is cut into tokens by Tokenize (a word with the spaces after
// it, or one punctuation mark, or a run of newlines). A request's
// prompt_tokens are the tokens of every history item and of the message plus
// 4 per message; completion_tokens are the reply's tokens actually produced;
// total_tokens is their sum.
//
// Tiers and quotas: "free" (25,000 tokens), "pro" (1,000,000) and
// "enterprise" (10,000,000) per period; a period is a calendar month in UTC
// and period_resets is the first instant of the next one. The quota is
// checked before any work: when nothing remains, or the prompt alone needs
// more than remains, the answer is 429 with an error saying when the period
// resets and a Retry-After header. A reply that would pass the quota is cut
// off at it; the usage reports what was produced and finish_reason is
// "quota" instead of "stop".
//
// /chat answers {"reply", "model", "usage": {"prompt_tokens",
// "completion_tokens", "total_tokens"}, "finish_reason"}.
//
// /chat/stream answers 200 with Content-Type text/event-stream and one
// event per token:
//
//	event: delta
//	data: "Hello"
//
// then "event: usage" whose data is the usage object, then "event: done"
// whose data is {"finish_reason": "stop"} (or "quota"). Every event is
// flushed as it is written, with the chunk delay (SetChunkDelay) before each
// delta. Errors found before streaming starts are ordinary JSON errors with
// their status. Each token is billed as it is sent; when the client goes
// away generation stops, and only the prompt and the tokens already sent are
// billed.
package agent
