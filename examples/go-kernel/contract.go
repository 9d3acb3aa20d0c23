// The contract between a kernel and longrun (src/contract in longrun): the workflow's input,
// the activity types and payloads, the journal, and every number of the compaction spec.
package main

import "strings"

const (
	workflowType         = "agentRun"
	actCallModel         = "call_model"
	actCompactContext    = "kernel.compact_context"
	actRunTool           = "run_tool"
	actJournalAppend     = "journal.append"
	compactionChangeID   = "context-compaction"
	digestHeadBytes      = 1024
	digestTailBytes      = 1024
	tailMinGroups        = 2
	tailMaxGroups        = 8
	defaultBlobLimit     = 2 * 1024 * 1024
	defaultTrigger       = 1_200_000
	defaultCardMax       = 8 * 1024
	defaultTailMax       = 256 * 1024
	defaultCANBytes      = 128 * 1024 * 1024
	maxSafeInteger       = 1<<53 - 1
	failPayloadGuard     = "PayloadGuard"
	failInvalidInput     = "InvalidRunInput"
	failHTTPRejected     = "HttpRejected"
	failHTTPUnavailable  = "HttpUnavailable"
	failMalformed        = "MalformedResponse"
	failInvalidCard      = "InvalidCard"
	failInvalidJournal   = "InvalidJournal"
	failCompactionFailed = "CompactionFailed"
)

var genesisHash = strings.Repeat("0", 64)

// The six sections of a state card, in this order, each exactly once.
var cardSections = []string{"## Task", "## Decisions", "## Files and artifacts", "## Verified", "## Open questions", "## Next step"}

var journalTypes = []string{
	"run.started", "turn.completed", "context.compacted", "context.compaction_failed",
	"payload.elided", "run.continued_as_new", "run.completed",
}

var toolNames = []string{"screenshot", "shell", "read_file", "list_files", "diff"}

type KernelLimits struct {
	BlobLimitBytes         int `json:"blobLimitBytes"`
	CompactionTriggerBytes int `json:"compactionTriggerBytes"`
	ContinueAsNewBytes     int `json:"continueAsNewBytes"`
	CardMaxBytes           int `json:"cardMaxBytes"`
	TailMaxBytes           int `json:"tailMaxBytes"`
}

type ModelChoice struct {
	Model *string `json:"model,omitempty"`
}

type RunSettings struct {
	Agent struct {
		Model string `json:"model"`
	} `json:"agent"`
	Compaction *ModelChoice `json:"compaction,omitempty"`
	Judge      *ModelChoice `json:"judge,omitempty"`
}

type RunCounters struct {
	Turns              int `json:"turns"`
	TotalRequestBytes  int `json:"totalRequestBytes"`
	Compactions        int `json:"compactions"`
	CompactionFailures int `json:"compactionFailures"`
	Executions         int `json:"executions"`
}

type JournalHead struct {
	NextSeq  int    `json:"nextSeq"`
	HeadHash string `json:"headHash"`
}

type Resume struct {
	Messages []Message   `json:"messages"`
	Counters RunCounters `json:"counters"`
	Journal  JournalHead `json:"journal"`
}

type RunInput struct {
	RunID        string         `json:"runId"`
	SystemPrompt string         `json:"systemPrompt"`
	UserRequest  string         `json:"userRequest"`
	Settings     RunSettings    `json:"settings"`
	MaxTurns     int            `json:"maxTurns"`
	Limits       map[string]any `json:"limits,omitempty"`
	Resume       *Resume        `json:"resume,omitempty"`
}

type RunResult struct {
	RunID       string      `json:"runId"`
	Counters    RunCounters `json:"counters"`
	FinalAnswer *string     `json:"finalAnswer"`
	Ended       string      `json:"ended"`
}

type Usage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
}

type RequestMetadata struct {
	RunID   string `json:"longrun_run_id"`
	Turn    string `json:"longrun_turn"`
	Purpose string `json:"longrun_purpose"`
}

type ToolDefinition struct {
	Type     string `json:"type"`
	Function struct {
		Name        string         `json:"name"`
		Description string         `json:"description"`
		Parameters  map[string]any `json:"parameters"`
	} `json:"function"`
}

type ChatRequest struct {
	Model    string           `json:"model"`
	Messages []Message        `json:"messages"`
	Tools    []ToolDefinition `json:"tools,omitempty"`
	Metadata *RequestMetadata `json:"metadata,omitempty"`
}

type CallModelInput struct {
	RunID   string      `json:"runId"`
	Turn    int         `json:"turn"`
	Request ChatRequest `json:"request"`
}

type CallModelResult struct {
	Message Message `json:"message"`
	Usage   Usage   `json:"usage"`
}

type CompactContextInput struct {
	RunID        string      `json:"runId"`
	Turn         int         `json:"turn"`
	Messages     []Message   `json:"messages"`
	Settings     RunSettings `json:"settings"`
	CardMaxBytes int         `json:"cardMaxBytes"`
}

type CompactContextResult struct {
	Card  string `json:"card"`
	Model string `json:"model"`
}

type RunToolInput struct {
	RunID string   `json:"runId"`
	Turn  int      `json:"turn"`
	Call  ToolCall `json:"call"`
}

type ToolResult struct {
	ToolCallID string  `json:"tool_call_id"`
	Content    Content `json:"content"`
}

type JournalEvent struct {
	RunID    string         `json:"runId"`
	Seq      int            `json:"seq"`
	Type     string         `json:"type"`
	Turn     int            `json:"turn"`
	Data     map[string]any `json:"data"`
	PrevHash string         `json:"prevHash"`
}

type JournalAppendInput struct {
	Events []JournalEvent `json:"events"`
}

type JournalAppendResult struct {
	Hashes []string `json:"hashes"`
}
