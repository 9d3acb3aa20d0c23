// The activities (src/kernel/activities in longrun): call_model, kernel.compact_context and
// run_tool over HTTP, with the failure classification the retry policies rely on, and
// journal.append, which hashes the events.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"go.temporal.io/sdk/temporal"
)

// maxRetryAfter: Retry-After is honoured up to this; longer gets the policy's backoff.
const maxRetryAfter = 30 * time.Second

type activities struct {
	modelBaseURL   string
	sandboxBaseURL string
	apiKey         string
	client         *http.Client
}

func joinURL(base, path string) string {
	return strings.TrimRight(base, "/") + "/" + strings.TrimLeft(path, "/")
}

// postJSON: 429, 5xx, network errors and timeouts are retryable; any other 4xx is final;
// a 2xx whose body is not JSON is retryable as a malformed response.
func (a *activities) postJSON(ctx context.Context, target, peer string, body any, timeout time.Duration, auth bool) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	request, err := http.NewRequestWithContext(ctx, http.MethodPost, target, bytes.NewReader(marshalPlain(body)))
	if err != nil {
		return nil, temporal.NewNonRetryableApplicationError(err.Error(), failHTTPRejected, nil)
	}
	request.Header.Set("content-type", "application/json")
	if auth && a.apiKey != "" {
		request.Header.Set("authorization", "Bearer "+a.apiKey)
	}
	response, err := a.client.Do(request)
	if err != nil {
		reason := err.Error()
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			reason = fmt.Sprintf("no answer within %d ms", timeout.Milliseconds())
		}
		return nil, temporal.NewApplicationError(fmt.Sprintf("%s unreachable at %s: %s", peer, target, reason), failHTTPUnavailable)
	}
	defer response.Body.Close()
	text, err := io.ReadAll(response.Body)
	if err != nil {
		return nil, temporal.NewApplicationError(fmt.Sprintf("%s unreachable at %s: %s", peer, target, err), failHTTPUnavailable)
	}
	if response.StatusCode < 200 || response.StatusCode > 299 {
		message := fmt.Sprintf("%s answered HTTP %d at %s: %s", peer, response.StatusCode, target, headOf(string(text), 200))
		if response.StatusCode == 429 || response.StatusCode >= 500 {
			delay := retryAfter(response.Header.Get("retry-after"), time.Now())
			return nil, temporal.NewApplicationErrorWithOptions(message, failHTTPUnavailable, temporal.ApplicationErrorOptions{NextRetryDelay: delay})
		}
		return nil, temporal.NewNonRetryableApplicationError(message, failHTTPRejected, nil)
	}
	if !json.Valid(text) {
		return nil, temporal.NewApplicationError(fmt.Sprintf("%s answered %d with a body that is not JSON: %s", peer, response.StatusCode, headOf(string(text), 120)), failMalformed)
	}
	return text, nil
}

func headOf(text string, n int) string {
	if len(text) <= n {
		return text
	}
	return utf8Head(text, n)
}

// retryAfter in seconds or as an HTTP date, clamped to [0, maxRetryAfter]; 0 when absent or unreadable.
func retryAfter(header string, now time.Time) time.Duration {
	value := strings.TrimSpace(header)
	if value == "" {
		return 0
	}
	var delay time.Duration
	if seconds, err := strconv.ParseFloat(value, 64); err == nil && seconds >= 0 {
		delay = time.Duration(math.Round(seconds*1000)) * time.Millisecond
	} else if at, err := http.ParseTime(value); err == nil {
		delay = at.Sub(now).Round(time.Millisecond)
	} else {
		return 0
	}
	return min(max(delay, 0), maxRetryAfter)
}

func malformed(peer, detail string) error {
	return temporal.NewApplicationError(fmt.Sprintf("%s answered an unexpected body: %s", peer, detail), failMalformed)
}

// parseChatResponse keeps what the contract knows of the answer; unknown fields are dropped.
func parseChatResponse(body []byte, peer string) (CallModelResult, error) {
	var response struct {
		Choices []struct {
			Message *struct {
				Role      string     `json:"role"`
				Content   *string    `json:"content"`
				ToolCalls []ToolCall `json:"tool_calls"`
			} `json:"message"`
		} `json:"choices"`
		Usage *Usage `json:"usage"`
	}
	if err := json.Unmarshal(body, &response); err != nil {
		return CallModelResult{}, malformed(peer, err.Error())
	}
	if len(response.Choices) == 0 || response.Choices[0].Message == nil {
		return CallModelResult{}, malformed(peer, "choices: no message")
	}
	answer := response.Choices[0].Message
	if answer.Role != "assistant" {
		return CallModelResult{}, malformed(peer, fmt.Sprintf("choices.0.message.role: %q, not assistant", answer.Role))
	}
	for i, call := range answer.ToolCalls {
		if call.Type != "function" {
			return CallModelResult{}, malformed(peer, fmt.Sprintf("choices.0.message.tool_calls.%d.type: %q, not function", i, call.Type))
		}
	}
	result := CallModelResult{Message: Message{Role: "assistant", Content: Content{Text: answer.Content}, ToolCalls: answer.ToolCalls}}
	if response.Usage != nil {
		result.Usage = *response.Usage
	}
	return result, nil
}

func (a *activities) CallModel(ctx context.Context, input CallModelInput) (CallModelResult, error) {
	body, err := a.postJSON(ctx, joinURL(a.modelBaseURL, "chat/completions"), "model", input.Request, 100*time.Second, true)
	if err != nil {
		return CallModelResult{}, err
	}
	return parseChatResponse(body, "model")
}

func (a *activities) CompactContext(ctx context.Context, input CompactContextInput) (CompactContextResult, error) {
	const peer = "compaction model"
	model := compactionModel(input.Settings, os.Getenv("LONGRUN_MODEL"))
	request := ChatRequest{
		Model: model,
		Messages: []Message{
			{Role: "system", Content: textContent(compactionPrompt(input.CardMaxBytes))},
			{Role: "user", Content: textContent(buildDigest(input.Messages))},
		},
		Metadata: &RequestMetadata{RunID: input.RunID, Turn: strconv.Itoa(input.Turn), Purpose: "compaction"},
	}
	body, err := a.postJSON(ctx, joinURL(a.modelBaseURL, "chat/completions"), peer, request, 20*time.Second, true)
	if err != nil {
		return CompactContextResult{}, err
	}
	answer, err := parseChatResponse(body, peer)
	if err != nil {
		return CompactContextResult{}, err
	}
	card := ""
	if answer.Message.Content.Text != nil {
		card = strings.TrimSpace(*answer.Message.Content.Text)
	}
	if problem := cardProblem(card, input.CardMaxBytes); problem != "" {
		return CompactContextResult{}, temporal.NewApplicationError(problem, failInvalidCard)
	}
	return CompactContextResult{Card: card, Model: model}, nil
}

func (a *activities) RunTool(ctx context.Context, input RunToolInput) (ToolResult, error) {
	target := joinURL(a.sandboxBaseURL, "tools/"+url.PathEscape(input.Call.Function.Name))
	body, err := a.postJSON(ctx, target, "sandbox", input, 60*time.Second, false)
	if err != nil {
		return ToolResult{}, err
	}
	var raw struct {
		ToolCallID *string         `json:"tool_call_id"`
		Content    json.RawMessage `json:"content"`
	}
	var result ToolResult
	if err := json.Unmarshal(body, &raw); err != nil {
		return ToolResult{}, malformed("sandbox", err.Error())
	}
	if raw.ToolCallID == nil {
		return ToolResult{}, malformed("sandbox", "tool_call_id: missing")
	}
	if len(raw.Content) == 0 || string(raw.Content) == "null" {
		return ToolResult{}, malformed("sandbox", "content: missing")
	}
	if err := json.Unmarshal(raw.Content, &result.Content); err != nil {
		return ToolResult{}, malformed("sandbox", "content: "+err.Error())
	}
	result.ToolCallID = *raw.ToolCallID
	return result, nil
}

// JournalAppend hashes each event as the JSON it arrived as (sha256 of its canonical JSON),
// after checking that each event of the batch names the hash of the one before it.
func JournalAppend(_ context.Context, input json.RawMessage) (JournalAppendResult, error) {
	decoder := json.NewDecoder(bytes.NewReader(input))
	decoder.UseNumber()
	var payload struct {
		Events []any `json:"events"`
	}
	if err := decoder.Decode(&payload); err != nil || len(payload.Events) == 0 {
		return JournalAppendResult{}, invalidJournal("events must be a non-empty array")
	}
	hashes := make([]string, 0, len(payload.Events))
	for index, raw := range payload.Events {
		event, _ := raw.(map[string]any)
		kind, _ := event["type"].(string)
		if !slices.Contains(journalTypes, kind) {
			return JournalAppendResult{}, invalidJournal(fmt.Sprintf("events[%d].type %q is not a journal type", index, kind))
		}
		if index > 0 && event["prevHash"] != hashes[index-1] {
			return JournalAppendResult{}, invalidJournal(fmt.Sprintf("events[%d].prevHash does not name the hash of events[%d]", index, index-1))
		}
		hash, err := journalHash(event)
		if err != nil {
			return JournalAppendResult{}, invalidJournal(fmt.Sprintf("events[%d]: %v", index, err))
		}
		hashes = append(hashes, hash)
	}
	return JournalAppendResult{Hashes: hashes}, nil
}

func invalidJournal(message string) error {
	return temporal.NewNonRetryableApplicationError(message, failInvalidJournal, nil)
}
