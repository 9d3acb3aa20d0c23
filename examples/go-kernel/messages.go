// The model API's wire format (OpenAI-compatible chat completions), with each message
// serialized in the shape and key order longrun's TypeScript kernel writes it.
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
)

type ToolCall struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

// ContentPart is a text part or an image part (a data URL).
type ContentPart struct {
	Type     string
	Text     string
	ImageURL string
}

// Content is a message's content: null, a string, or a list of parts.
type Content struct {
	Text    *string
	Parts   []ContentPart
	IsParts bool
}

type Message struct {
	Role       string
	Content    Content
	ToolCalls  []ToolCall
	ToolCallID string
}

func textContent(text string) Content { return Content{Text: &text} }

func partsContent(parts []ContentPart) Content { return Content{Parts: parts, IsParts: true} }

// marshalPlain is json.Marshal without HTML escaping, as JSON.stringify writes.
func marshalPlain(v any) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic(fmt.Sprintf("json: %v", err))
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

func (p ContentPart) MarshalJSON() ([]byte, error) {
	if p.Type == "image_url" {
		return marshalPlain(struct {
			Type     string `json:"type"`
			ImageURL struct {
				URL string `json:"url"`
			} `json:"image_url"`
		}{Type: p.Type, ImageURL: struct {
			URL string `json:"url"`
		}{p.ImageURL}}), nil
	}
	return marshalPlain(struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}{p.Type, p.Text}), nil
}

func (p *ContentPart) UnmarshalJSON(data []byte) error {
	var raw struct {
		Type     string  `json:"type"`
		Text     *string `json:"text"`
		ImageURL *struct {
			URL *string `json:"url"`
		} `json:"image_url"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		return err
	}
	switch {
	case raw.Type == "text" && raw.Text != nil:
		*p = ContentPart{Type: "text", Text: *raw.Text}
	case raw.Type == "image_url" && raw.ImageURL != nil && raw.ImageURL.URL != nil:
		*p = ContentPart{Type: "image_url", ImageURL: *raw.ImageURL.URL}
	default:
		return fmt.Errorf("a content part must be {type: text, text} or {type: image_url, image_url: {url}}")
	}
	return nil
}

func (c Content) MarshalJSON() ([]byte, error) {
	switch {
	case c.IsParts:
		parts := c.Parts
		if parts == nil {
			parts = []ContentPart{}
		}
		return marshalPlain(parts), nil
	case c.Text != nil:
		return marshalPlain(*c.Text), nil
	default:
		return []byte("null"), nil
	}
}

func (c *Content) UnmarshalJSON(data []byte) error {
	trimmed := bytes.TrimSpace(data)
	switch {
	case bytes.Equal(trimmed, []byte("null")):
		*c = Content{}
	case len(trimmed) > 0 && trimmed[0] == '[':
		var parts []ContentPart
		if err := json.Unmarshal(trimmed, &parts); err != nil {
			return err
		}
		*c = partsContent(parts)
	default:
		var text string
		if err := json.Unmarshal(trimmed, &text); err != nil {
			return fmt.Errorf("content must be a string, a list of parts or null")
		}
		*c = textContent(text)
	}
	return nil
}

// MarshalJSON writes the keys in the order the TypeScript kernel does: role, content,
// tool_calls for the assistant; role, tool_call_id, content for a tool result.
func (m Message) MarshalJSON() ([]byte, error) {
	switch m.Role {
	case "assistant":
		if len(m.ToolCalls) > 0 {
			return marshalPlain(struct {
				Role      string     `json:"role"`
				Content   Content    `json:"content"`
				ToolCalls []ToolCall `json:"tool_calls"`
			}{m.Role, m.Content, m.ToolCalls}), nil
		}
	case "tool":
		return marshalPlain(struct {
			Role       string  `json:"role"`
			ToolCallID string  `json:"tool_call_id"`
			Content    Content `json:"content"`
		}{m.Role, m.ToolCallID, m.Content}), nil
	}
	return marshalPlain(struct {
		Role    string  `json:"role"`
		Content Content `json:"content"`
	}{m.Role, m.Content}), nil
}

func (m *Message) UnmarshalJSON(data []byte) error {
	var raw struct {
		Role       string     `json:"role"`
		Content    Content    `json:"content"`
		ToolCalls  []ToolCall `json:"tool_calls"`
		ToolCallID string     `json:"tool_call_id"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		return err
	}
	*m = Message{Role: raw.Role, Content: raw.Content, ToolCalls: raw.ToolCalls, ToolCallID: raw.ToolCallID}
	return nil
}
