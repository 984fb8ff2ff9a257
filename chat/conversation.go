package chat

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"

	"github.com/forgehq/forge/internal/atomicfile"
)

// Conversation is a saved session, as `forge chat --save FILE` writes it
// and `--history FILE` reads it:
//
//	{"model": "ref-1", "history": [{"role": "user", "content": "..."}, ...]}
//
// Reading also accepts a bare array of messages, or "messages" in place of
// "history".
type Conversation struct {
	Model   string    `json:"model,omitempty"`
	History []Message `json:"history"`
}

// LoadConversation reads a saved conversation.
func LoadConversation(path string) (*Conversation, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	c, err := parseConversation(data)
	if err != nil {
		return nil, fmt.Errorf("%s is not a saved conversation: %w", path, err)
	}
	return c, nil
}

func parseConversation(data []byte) (*Conversation, error) {
	data = bytes.TrimSpace(data)
	c := &Conversation{}
	if len(data) == 0 {
		return c, nil
	}
	if data[0] == '[' {
		if err := json.Unmarshal(data, &c.History); err != nil {
			return nil, err
		}
	} else {
		var obj struct {
			Model    string    `json:"model"`
			History  []Message `json:"history"`
			Messages []Message `json:"messages"`
		}
		if err := json.Unmarshal(data, &obj); err != nil {
			return nil, err
		}
		c.Model, c.History = obj.Model, obj.History
		if c.History == nil {
			c.History = obj.Messages
		}
	}
	for i, m := range c.History {
		if m.Role != "user" && m.Role != "assistant" {
			return nil, fmt.Errorf("message %d has role %q; roles are \"user\" and \"assistant\"", i+1, m.Role)
		}
	}
	return c, nil
}

// SaveConversation writes a conversation atomically (a temporary file
// renamed over path), readable only by its owner: conversations can hold
// anything.
func SaveConversation(path string, c *Conversation) error {
	if c.History == nil {
		c = &Conversation{Model: c.Model, History: []Message{}}
	}
	data, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.Write(path, append(data, '\n'))
}
