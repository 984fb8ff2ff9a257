// Package prompttest is the Prompter tests give forge: it answers forge's
// questions from a script, in order, and records them. Only tests import
// it (testkit/clitest, and the commands' tests of prompts that
// testscript, having no terminal, cannot reach).
package prompttest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
)

// ErrNoAnswer is what a question gets when the script has run out, as
// from a terminal whose input ended.
var ErrNoAnswer = errors.New("no answer: input ended")

// Script answers questions in order. An answer is a string; a
// func(screen string) string of what forge has written so far (Screen),
// to answer with something forge printed; or an error, which the question
// returns (context.Canceled is Ctrl-C). An empty string takes the
// question's default.
type Script struct {
	// Answers not yet given.
	Answers []any
	// Screen is what answer functions read.
	Screen func() string
	// T, when set, fails the test at a question the script has no answer
	// for; otherwise that question gets ErrNoAnswer.
	T testing.TB

	mu    sync.Mutex
	asked [][2]string // kind, question
}

// Questions are the questions asked, as forge worded them.
func (s *Script) Questions() []string { return s.list(func(k, q string) string { return q }) }

// Asked are the questions asked with their kind: "input: Q",
// "password: Q" or "confirm: Q".
func (s *Script) Asked() []string { return s.list(func(k, q string) string { return k + ": " + q }) }

func (s *Script) list(f func(kind, q string) string) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]string, len(s.asked))
	for i, a := range s.asked {
		out[i] = f(a[0], a[1])
	}
	return out
}

// Left are the answers no question took.
func (s *Script) Left() []any {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.Answers
}

func (s *Script) next(kind, q string) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.asked = append(s.asked, [2]string{kind, q})
	if len(s.Answers) == 0 {
		if s.T != nil {
			s.T.Fatalf("unexpected question %q", kind+": "+q)
		}
		return "", ErrNoAnswer
	}
	a := s.Answers[0]
	s.Answers = s.Answers[1:]
	switch v := a.(type) {
	case string:
		return v, nil
	case func(string) string:
		return v(s.Screen()), nil
	case error:
		return "", v
	}
	panic(fmt.Sprintf("prompttest: an answer of type %T", a))
}

// Input answers a line; "" is def.
func (s *Script) Input(_ context.Context, q, def string) (string, error) {
	a, err := s.next("input", q)
	if a == "" {
		a = def
	}
	return a, err
}

// Password answers a password.
func (s *Script) Password(_ context.Context, q string) (string, error) {
	return s.next("password", q)
}

// Confirm answers "y" or "yes" for yes, "" for def, anything else for no.
func (s *Script) Confirm(_ context.Context, q string, def bool) (bool, error) {
	a, err := s.next("confirm", q)
	if a == "" {
		return def, err
	}
	return a == "y" || a == "yes", err
}
