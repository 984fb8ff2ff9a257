package agent

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// KeyPrefix starts every agent API key.
const KeyPrefix = "agk_"

// DefaultModel answers requests that name no model.
const DefaultModel = "ref-1"

// Tier quotas in tokens per period.
var tierQuotas = map[string]int{
	"free":       25_000,
	"pro":        1_000_000,
	"enterprise": 10_000_000,
}

// Tiers lists the tier names, smallest quota first.
func Tiers() []string { return []string{"free", "pro", "enterprise"} }

// TierQuota returns a tier's quota per period and whether the tier exists.
func TierQuota(tier string) (int, bool) {
	q, ok := tierQuotas[tier]
	return q, ok
}

// Model produces the whole reply to message after history. It must be
// deterministic and safe for concurrent use.
type Model func(history []Message, message string) string

// Message is one item of a conversation's history.
type Message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// Usage is a key's standing in the current period, as GET /usage reports it.
type Usage struct {
	Tier         string    `json:"tier"`
	UsedTokens   int       `json:"used_tokens"`
	QuotaTokens  int       `json:"quota_tokens"`
	Remaining    int       `json:"remaining"`
	PeriodResets time.Time `json:"period_resets"`
}

// Service is the agent API: its keys, their usage, the models, and the
// HTTP handler. The zero value is not usable; call New.
type Service struct {
	mu           sync.Mutex
	keys         map[string]*account
	models       map[string]Model
	defaultModel string
	now          func() time.Time
	delay        atomic.Int64 // time.Duration before each streamed chunk
	hold         atomic.Pointer[holdPoint]
	handler      http.Handler
	// changes counts changes of usage, tier or quota; onUsage is told
	// of them (see persist.go).
	changes atomic.Int64
	onUsage func()
	// unknownHint follows "invalid API key" for a key the service does
	// not know (SetUnknownKeyHint).
	unknownHint string
}

// SetUnknownKeyHint adds hint to the answer to a key the service does
// not know: a server that keeps its keys in memory says so, and when it
// started, to a client holding the key of an earlier run. Call it before
// serving.
func (s *Service) SetUnknownKeyHint(hint string) { s.unknownHint = hint }

type account struct {
	tier   string
	quota  int
	used   int
	resets time.Time // end of the period the usage belongs to
}

// New returns a Service with no keys and the two built-in models.
func New() *Service {
	s := &Service{
		keys:         map[string]*account{},
		models:       map[string]Model{"ref-1": refModel(true), "ref-1-mini": refModel(false)},
		defaultModel: DefaultModel,
		now:          time.Now,
	}
	s.handler = s.routes()
	return s
}

// CreateKey makes a new key of the given tier and returns it.
func (s *Service) CreateKey(tier string) (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	key := KeyPrefix + hex.EncodeToString(b[:])
	return key, s.AddKey(key, tier)
}

// CheckKey says what is wrong with a key the caller chose, if anything: it
// must carry KeyPrefix, be at least 12 characters long and hold no spaces.
func CheckKey(key string) error {
	if !strings.HasPrefix(key, KeyPrefix) || len(key) < 12 || strings.ContainsAny(key, " \t\r\n") {
		return fmt.Errorf("agent key must start with %q, be at least 12 characters and hold no spaces", KeyPrefix)
	}
	return nil
}

// AddKey registers a key chosen by the caller (see CheckKey).
func (s *Service) AddKey(key, tier string) error {
	if err := CheckKey(key); err != nil {
		return err
	}
	quota, ok := tierQuotas[tier]
	if !ok {
		return fmt.Errorf("unknown tier %q (tiers: %s)", tier, strings.Join(Tiers(), ", "))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, dup := s.keys[key]; dup {
		return fmt.Errorf("agent key already exists")
	}
	s.keys[key] = &account{tier: tier, quota: quota, resets: nextPeriod(s.now())}
	return nil
}

// RemoveKey revokes a key; requests with it get 401 from then on.
func (s *Service) RemoveKey(key string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.keys, key)
}

// SetTier moves a key to another tier, with that tier's quota.
func (s *Service) SetTier(key, tier string) error {
	quota, ok := tierQuotas[tier]
	if !ok {
		return fmt.Errorf("unknown tier %q (tiers: %s)", tier, strings.Join(Tiers(), ", "))
	}
	return s.update(key, func(a *account) { a.tier, a.quota = tier, quota })
}

// SetQuota overrides a key's quota per period.
func (s *Service) SetQuota(key string, tokens int) error {
	return s.update(key, func(a *account) { a.quota = tokens })
}

// SetUsed sets how many tokens a key has used this period.
func (s *Service) SetUsed(key string, tokens int) error {
	return s.update(key, func(a *account) { a.used = tokens })
}

// Usage reports a key's standing, as GET /usage would.
func (s *Service) Usage(key string) (Usage, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	a := s.accountLocked(key)
	if a == nil {
		return Usage{}, false
	}
	return a.usage(), true
}

// SetChunkDelay sets the pause before each streamed chunk, so clients can
// be tried against a slow stream. Zero (the default) streams at full speed.
func (s *Service) SetChunkDelay(d time.Duration) { s.delay.Store(int64(d)) }

// ChunkDelay is the pause before each streamed chunk.
func (s *Service) ChunkDelay() time.Duration { return time.Duration(s.delay.Load()) }

// holdPoint stops streams after some chunks until released.
type holdPoint struct {
	after   int
	release chan struct{}
	once    sync.Once
}

// HoldAfter makes every reply streamed from now on stop after its first n
// chunks, until release is called or its client goes away: a client can
// be interrupted in the middle of a reply on a machine of any speed, where
// a chunk delay only makes the middle likely. release (idempotent) lets
// the held streams go on and ends the hold.
func (s *Service) HoldAfter(n int) (release func()) {
	h := &holdPoint{after: n, release: make(chan struct{})}
	s.hold.Store(h)
	return func() {
		s.hold.CompareAndSwap(h, nil)
		h.once.Do(func() { close(h.release) })
	}
}

// SetModel adds or replaces a model.
func (s *Service) SetModel(name string, m Model) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.models[name] = m
}

// SetDefaultModel names the model used when a request names none.
func (s *Service) SetDefaultModel(name string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.models[name]; !ok {
		return fmt.Errorf("unknown model %q", name)
	}
	s.defaultModel = name
	return nil
}

// SetClock replaces time.Now, for tests of the quota period.
func (s *Service) SetClock(now func() time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.now = now
}

// Models lists the model names, sorted, and the default one.
func (s *Service) Models() (names []string, def string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for n := range s.models {
		names = append(names, n)
	}
	sort.Strings(names)
	return names, s.defaultModel
}

func (s *Service) model(name string) (Model, string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if name == "" {
		name = s.defaultModel
	}
	m, ok := s.models[name]
	return m, name, ok
}

func (s *Service) update(key string, fn func(*account)) error {
	before := s.changes.Load()
	s.mu.Lock()
	a := s.accountLocked(key)
	if a == nil {
		s.mu.Unlock()
		return fmt.Errorf("unknown agent key")
	}
	fn(a)
	s.changes.Add(1)
	s.mu.Unlock()
	s.notifyUsage(before)
	return nil
}

// accountLocked returns the key's account with its period rolled over if
// it has ended.
func (s *Service) accountLocked(key string) *account {
	a := s.keys[key]
	if a == nil {
		return nil
	}
	if now := s.now(); !now.Before(a.resets) {
		a.used, a.resets = 0, nextPeriod(now)
	}
	return a
}

func (a *account) usage() Usage {
	return Usage{Tier: a.tier, UsedTokens: a.used, QuotaTokens: a.quota, Remaining: max(a.quota-a.used, 0), PeriodResets: a.resets}
}

// nextPeriod is the first instant of the calendar month after t, in UTC.
func nextPeriod(t time.Time) time.Time {
	t = t.UTC()
	return time.Date(t.Year(), t.Month()+1, 1, 0, 0, 0, 0, time.UTC)
}

// quotaError is a 429: nothing left, or not enough for the prompt.
type quotaError struct {
	msg        string
	retryAfter time.Duration
}

func (e *quotaError) Error() string { return e.msg }

// chargePrompt bills a request's prompt tokens if the key's quota allows
// them, before any reply is produced.
func (s *Service) chargePrompt(key string, prompt int) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	a := s.accountLocked(key)
	if a == nil {
		return errUnknownKey
	}
	remaining := a.quota - a.used
	resets := a.resets.Format(time.RFC3339)
	wait := a.resets.Sub(s.now())
	switch {
	case remaining <= 0:
		return &quotaError{fmt.Sprintf("token quota exhausted: %d of %d tokens used this period (tier %s); it resets at %s", a.used, a.quota, a.tier, resets), wait}
	case prompt > remaining:
		return &quotaError{fmt.Sprintf("token quota too low: this message and its history need %d tokens but only %d remain this period (tier %s); it resets at %s", prompt, remaining, a.tier, resets), wait}
	}
	a.used += prompt
	s.changes.Add(1)
	return nil
}

// chargeCompletion bills up to n completion tokens and returns how many
// the quota allowed.
func (s *Service) chargeCompletion(key string, n int) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	a := s.accountLocked(key)
	if a == nil {
		return 0
	}
	n = min(n, max(a.quota-a.used, 0))
	a.used += n
	s.changes.Add(1)
	return n
}

// refund returns n tokens billed for chunks that could not be sent.
func (s *Service) refund(key string, n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if a := s.keys[key]; a != nil {
		a.used = max(a.used-n, 0)
		s.changes.Add(1)
	}
}

func (s *Service) knownKey(key string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.keys[key]
	return ok
}

// modelNames is the sorted list of models for error messages.
func (s *Service) modelNames() string {
	names, _ := s.Models()
	return strings.Join(names, ", ")
}
