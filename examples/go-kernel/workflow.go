// The agent-run workflow (src/kernel/workflows/agent-run.ts in longrun): the turn loop of the
// spec. Compaction, rebuild, ContinueAsNew and the guard's honest last boundary sit behind
// workflow.GetVersion("context-compaction", DefaultVersion, 1), asked only where the gated and
// the ungated paths differ, so that a history written without them replays as written.
package main

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"
)

// kernelOptions tell the binaries apart; each broken control turns one switch.
type kernelOptions struct {
	// gate: "versioned" (GetVersion), "never" (v0) or "always" (the ungated control).
	gate string
	// triggerBoundaries: consecutive boundaries over the trigger before compaction (2 in trigger-late).
	triggerBoundaries int
	rebuild           rebuildOptions
	// compactionFailureEndsRun: a failed compaction ends the run (true only in compaction-fatal).
	compactionFailureEndsRun bool
}

var currentKernel = kernelOptions{gate: "versioned", triggerBoundaries: 1, rebuild: specRebuild}

// binaries: v0 (before compaction), v1 (current) and the broken controls.
var binaries = map[string]kernelOptions{
	"v0":               {gate: "never", triggerBoundaries: 1, rebuild: specRebuild},
	"v1":               currentKernel,
	"ungated":          {gate: "always", triggerBoundaries: 1, rebuild: specRebuild},
	"split-group":      {gate: "versioned", triggerBoundaries: 1, rebuild: rebuildOptions{splitsGroups: true, tailMinGroups: tailMinGroups, tailMaxGroups: tailMaxGroups}},
	"trigger-late":     {gate: "versioned", triggerBoundaries: 2, rebuild: specRebuild},
	"compaction-fatal": {gate: "versioned", triggerBoundaries: 1, rebuild: specRebuild, compactionFailureEndsRun: true},
}

var binaryIDs = []string{"v0", "v1", "ungated", "split-group", "trigger-late", "compaction-fatal"}

func retry(initial time.Duration, maximum time.Duration, attempts int32) *temporal.RetryPolicy {
	return &temporal.RetryPolicy{InitialInterval: initial, BackoffCoefficient: 2, MaximumInterval: maximum, MaximumAttempts: attempts}
}

func activityContext(ctx workflow.Context, startToClose time.Duration, policy *temporal.RetryPolicy) workflow.Context {
	return workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: startToClose, RetryPolicy: policy})
}

func agentRunFor(options kernelOptions) func(workflow.Context, RunInput) (RunResult, error) {
	return func(ctx workflow.Context, input RunInput) (RunResult, error) {
		limits, err := checkRunInput(input)
		if err != nil {
			return RunResult{}, temporal.NewNonRetryableApplicationError(err.Error(), failInvalidInput, nil)
		}
		return newAgentRun(ctx, input, options, limits).run()
	}
}

type agentRun struct {
	ctx     workflow.Context
	input   RunInput
	options kernelOptions
	limits  KernelLimits
	// messages: the dialog; elisions stay in it.
	messages []Message
	counters RunCounters
	journal  *journalWriter
	// executionRequestBytes: what the ContinueAsNew budget counts.
	executionRequestBytes int
	boundariesOverTrigger int
}

func newAgentRun(ctx workflow.Context, input RunInput, options kernelOptions, limits KernelLimits) *agentRun {
	run := &agentRun{ctx: ctx, input: input, options: options, limits: limits}
	head := JournalHead{NextSeq: 1, HeadHash: genesisHash}
	if input.Resume != nil {
		run.messages = append([]Message{}, input.Resume.Messages...)
		run.counters = input.Resume.Counters
		run.counters.Executions++
		head = input.Resume.Journal
	} else {
		run.messages = []Message{
			{Role: "system", Content: textContent(input.SystemPrompt)},
			{Role: "user", Content: textContent(input.UserRequest)},
		}
		run.counters = RunCounters{Executions: 1}
	}
	run.journal = newJournalWriter(ctx, input.RunID, head)
	return run
}

func (r *agentRun) run() (RunResult, error) {
	if r.input.Resume == nil {
		r.journal.append("run.started", 0, map[string]any{"max_turns": r.input.MaxTurns, "limits": r.limits})
	}
	var finalAnswer *string
	ended := "max-turns"
	for r.counters.Turns < r.input.MaxTurns {
		if err := r.journal.failed(); err != nil {
			return RunResult{}, err
		}
		if err := r.continueAsNewIfDue(); err != nil {
			return RunResult{}, err
		}
		turn := r.counters.Turns + 1
		request, bytes, err := r.prepareRequest(turn)
		if err != nil {
			return RunResult{}, err
		}
		var answer CallModelResult
		callCtx := activityContext(r.ctx, 2*time.Minute, retry(time.Second, 30*time.Second, 8))
		if err := workflow.ExecuteActivity(callCtx, actCallModel, CallModelInput{r.input.RunID, turn, request}).Get(r.ctx, &answer); err != nil {
			return RunResult{}, err
		}
		r.executionRequestBytes += bytes
		r.counters.TotalRequestBytes += bytes
		calls := answer.Message.ToolCalls
		results := r.runTools(turn, calls)
		next := make([]Message, 0, len(r.messages)+1+len(results))
		next = append(append(append(next, r.messages...), answer.Message), results...)
		r.messages = next
		r.counters.Turns = turn
		r.journal.append("turn.completed", turn, map[string]any{
			"turn": turn, "request_bytes": bytes, "usage": answer.Usage,
			"tool_calls": len(calls), "execution_request_bytes": r.executionRequestBytes,
		})
		if len(calls) == 0 {
			finalAnswer = answer.Message.Content.Text
			ended = "done"
			break
		}
	}
	r.journal.append("run.completed", r.counters.Turns, map[string]any{"ended": ended, "counters": r.counters})
	if _, err := r.journal.drain(); err != nil {
		return RunResult{}, err
	}
	return RunResult{RunID: r.input.RunID, Counters: r.counters, FinalAnswer: finalAnswer, Ended: ended}, nil
}

// gateOpen: asked only where the gated and the ungated paths would differ.
func (r *agentRun) gateOpen() bool {
	switch r.options.gate {
	case "never":
		return false
	case "always":
		return true
	}
	return workflow.GetVersion(r.ctx, compactionChangeID, workflow.DefaultVersion, 1) == 1
}

// prepareRequest: guard, then compact when due, then guard again. A request the gated guard
// cannot bring under the limit ends the run, after compaction had its chance to shrink it.
func (r *agentRun) prepareRequest(turn int) (ChatRequest, int, error) {
	request, bytes, blocked := r.guardedRequest(turn)
	if r.compactionDue(bytes) {
		compacted, err := r.compact(turn, bytes)
		if err != nil {
			return request, bytes, err
		}
		if compacted {
			request, bytes, blocked = r.guardedRequest(turn)
		}
	}
	if blocked != nil {
		return request, bytes, r.failGuard(turn, "request", *blocked)
	}
	return request, bytes, nil
}

func (r *agentRun) compactionDue(requestBytes int) bool {
	if requestBytes <= r.limits.CompactionTriggerBytes {
		r.boundariesOverTrigger = 0
		return false
	}
	r.boundariesOverTrigger++
	return r.boundariesOverTrigger >= r.options.triggerBoundaries && r.gateOpen()
}

func (r *agentRun) guardedRequest(turn int) (ChatRequest, int, *guardResult) {
	request := buildAgentRequest(r.input.RunID, turn, r.input.Settings.Agent.Model, nil)
	messages, bytes, blocked := r.guard(turn, "request", overheadBytes(request), false)
	r.messages = messages
	request.Messages = messages
	return request, bytes, blocked
}

// guard elides big items until the payload fits. Where v0 sends an oversized payload anyway,
// the gated path elides further and, failing that, reports the payload as blocked.
func (r *agentRun) guard(turn int, payload string, overhead int, elidesAssistantText bool) ([]Message, int, *guardResult) {
	target, big := guardTargetBytes(r.limits), bigItemThresholdBytes(r.limits)
	policy := guardPolicy{exhaustive: false, countsScreenshots: true, elidesAssistantText: elidesAssistantText}
	result := guardMessages(r.messages, overhead, target, big, policy)
	var blocked *guardResult
	if !result.fits && r.gateOpen() {
		policy.exhaustive = true
		result = guardMessages(r.messages, overhead, target, big, policy)
		if !result.fits {
			blocked = &result
		}
	}
	if len(result.elided) > 0 {
		r.journal.append("payload.elided", turn, elidedData(turn, payload, result))
	}
	return result.messages, result.bytesAfter, blocked
}

// failGuard: the honest last boundary, rather than schedule a payload over the blob limit.
func (r *agentRun) failGuard(turn int, payload string, result guardResult) error {
	if _, err := r.journal.drain(); err != nil {
		return err
	}
	what := fmt.Sprintf("the request of turn %d", turn)
	if payload != "request" {
		what = fmt.Sprintf("the %s payload", strings.ReplaceAll(payload, "_", " "))
	}
	message := fmt.Sprintf("%s is %d bytes after eliding %d items and cannot be brought under %d bytes (blob limit %d)",
		what, result.bytesAfter, len(result.elided), guardTargetBytes(r.limits), r.limits.BlobLimitBytes)
	return temporal.NewNonRetryableApplicationError(message, failPayloadGuard, nil)
}

// compact replaces the messages with the rebuild around a fresh card; false when compaction
// failed, which the run survives (an error only in the compaction-fatal control).
func (r *agentRun) compact(turn int, bytesBefore int) (bool, error) {
	card, err := r.requestCard(turn)
	if err == nil {
		var rebuild rebuilt
		if rebuild, err = rebuildMessages(r.messages, card, r.limits.TailMaxBytes, r.options.rebuild); err == nil {
			r.messages = rebuild.messages
			r.counters.Compactions++
			bytesAfter := jsonBytes(buildAgentRequest(r.input.RunID, turn, r.input.Settings.Agent.Model, r.messages))
			r.journal.append("context.compacted", turn, map[string]any{
				"turn": turn, "bytes_before": bytesBefore, "bytes_after": bytesAfter,
				"card": card, "kept": rebuild.kept, "dropped": rebuild.dropped,
			})
			return true, nil
		}
	}
	// A failed compaction never stops the run: it is journaled and the turn goes on.
	r.counters.CompactionFailures++
	reason := failureReason(err)
	r.journal.append("context.compaction_failed", turn, map[string]any{"turn": turn, "reason": reason})
	if r.options.compactionFailureEndsRun {
		if _, err := r.journal.drain(); err != nil {
			return false, err
		}
		return false, temporal.NewNonRetryableApplicationError(reason, failCompactionFailed, nil)
	}
	return false, nil
}

// requestCard: the history as compaction gets it (guarded for this input, assistant texts
// elidable too), then kernel.compact_context with at most 3 short attempts.
func (r *agentRun) requestCard(turn int) (string, error) {
	input := CompactContextInput{RunID: r.input.RunID, Turn: turn, Messages: []Message{}, Settings: r.input.Settings, CardMaxBytes: r.limits.CardMaxBytes}
	// Elisions for the compaction input are for this input only: guard leaves r.messages as they are.
	messages, _, blocked := r.guard(turn, "compaction", overheadBytes(input), true)
	if blocked != nil {
		return "", fmt.Errorf("the compaction input is %d bytes, over the limit", blocked.bytesAfter)
	}
	input.Messages = messages
	var result CompactContextResult
	compactCtx := activityContext(r.ctx, 30*time.Second, retry(250*time.Millisecond, time.Second, 3))
	if err := workflow.ExecuteActivity(compactCtx, actCompactContext, input).Get(r.ctx, &result); err != nil {
		return "", err
	}
	return result.Card, nil
}

// runTools runs every tool call in parallel; a tool that fails for good answers with an error
// text, so every tool call keeps its result.
func (r *agentRun) runTools(turn int, calls []ToolCall) []Message {
	toolCtx := activityContext(r.ctx, 90*time.Second, retry(500*time.Millisecond, 10*time.Second, 5))
	futures := make([]workflow.Future, len(calls))
	for i, call := range calls {
		futures[i] = workflow.ExecuteActivity(toolCtx, actRunTool, RunToolInput{r.input.RunID, turn, call})
	}
	results := make([]Message, len(calls))
	for i, call := range calls {
		var result ToolResult
		content := Content{}
		if err := futures[i].Get(r.ctx, &result); err != nil {
			content = textContent(fmt.Sprintf("[tool error: %s]", failureReason(err)))
		} else {
			content = result.Content
		}
		results[i] = Message{Role: "tool", ToolCallID: call.ID, Content: content}
	}
	return results
}

// continueAsNewIfDue: at a clean turn boundary, once this execution has sent its budget,
// carry on in a fresh one.
func (r *agentRun) continueAsNewIfDue() error {
	if !r.budgetSpent() {
		return nil
	}
	turn := r.counters.Turns
	carried := r.input
	carried.Resume = &Resume{Messages: []Message{}, Counters: r.counters, Journal: r.journal.head}
	messages, _, blocked := r.guard(turn+1, "continue_as_new", overheadBytes(carried), false)
	if blocked != nil {
		return r.failGuard(turn+1, "continue_as_new", *blocked)
	}
	r.messages = messages
	r.journal.append("run.continued_as_new", turn, map[string]any{
		"turn": turn, "execution": r.counters.Executions, "execution_request_bytes": r.executionRequestBytes,
		"messages": len(r.messages), "counters": r.counters,
	})
	head, err := r.journal.drain()
	if err != nil {
		return err
	}
	next := r.input
	next.Resume = &Resume{Messages: r.messages, Counters: r.counters, Journal: head}
	return workflow.NewContinueAsNewError(r.ctx, workflowType, next)
}

// budgetSpent: this execution has sent more than its budget (the spec: exceeded, not reached).
func (r *agentRun) budgetSpent() bool {
	return r.executionRequestBytes > r.limits.ContinueAsNewBytes && r.gateOpen()
}

func elidedData(turn int, payload string, result guardResult) map[string]any {
	screenshots, toolOutputs, elidedBytes := 0, 0, 0
	for _, item := range result.elided {
		switch item.Kind {
		case kindScreenshot:
			screenshots++
		case kindToolOutput:
			toolOutputs++
		}
		elidedBytes += item.Bytes
	}
	return map[string]any{
		"turn": turn, "payload": payload, "items": len(result.elided), "screenshots": screenshots,
		"tool_outputs": toolOutputs, "elided_bytes": elidedBytes,
		"bytes_before": result.bytesBefore, "bytes_after": result.bytesAfter,
	}
}

// failureReason: one line for the journal, `Type: message` of the innermost failure.
func failureReason(err error) string {
	if err == nil {
		return ""
	}
	innermost := err
	for next := errors.Unwrap(innermost); next != nil; next = errors.Unwrap(innermost) {
		innermost = next
	}
	text := innermost.Error()
	var app *temporal.ApplicationError
	if errors.As(innermost, &app) {
		text = app.Message()
		if app.Type() != "" {
			text = app.Type() + ": " + text
		}
	}
	line, _, _ := strings.Cut(text, "\n")
	return line
}

// checkRunInput: bad input ends the run at once, naming the field.
func checkRunInput(input RunInput) (KernelLimits, error) {
	require := func(value, field string, mayBeEmpty bool) error {
		if !mayBeEmpty && strings.TrimSpace(value) == "" {
			return fmt.Errorf("%s must be a non-empty string, got %q", field, value)
		}
		return nil
	}
	for _, check := range []error{
		require(input.RunID, "runId", false),
		require(input.UserRequest, "userRequest", false),
		require(input.Settings.Agent.Model, "settings.agent.model", false),
	} {
		if check != nil {
			return KernelLimits{}, check
		}
	}
	if input.Settings.Compaction != nil && input.Settings.Compaction.Model != nil {
		if err := require(*input.Settings.Compaction.Model, "settings.compaction.model", false); err != nil {
			return KernelLimits{}, err
		}
	}
	if input.Settings.Judge != nil && input.Settings.Judge.Model != nil {
		if err := require(*input.Settings.Judge.Model, "settings.judge.model", false); err != nil {
			return KernelLimits{}, err
		}
	}
	if input.MaxTurns < 1 {
		return KernelLimits{}, fmt.Errorf("maxTurns must be an integer >= 1, got %d", input.MaxTurns)
	}
	limits, err := resolveLimits(input.Limits)
	if err != nil {
		return limits, err
	}
	if resume := input.Resume; resume != nil {
		if len(resume.Messages) < 1 || resume.Messages[0].Role != "system" {
			return limits, fmt.Errorf("resume.messages[0] must be the system prompt")
		}
		if len(resume.Messages) < 2 || resume.Messages[1].Role != "user" {
			return limits, fmt.Errorf("resume.messages[1] must be the user's request")
		}
		c := resume.Counters
		if c.Turns < 0 || c.TotalRequestBytes < 0 || c.Compactions < 0 || c.CompactionFailures < 0 || c.Executions < 1 {
			return limits, fmt.Errorf("resume.counters must count from 0 (executions from 1)")
		}
		if resume.Journal.NextSeq < 1 {
			return limits, fmt.Errorf("resume.journal.nextSeq must be an integer >= 1, got %d", resume.Journal.NextSeq)
		}
		if len(resume.Journal.HeadHash) != 64 || strings.Trim(resume.Journal.HeadHash, "0123456789abcdef") != "" {
			return limits, fmt.Errorf("resume.journal.headHash must be 64 lowercase hex digits")
		}
	}
	return limits, nil
}

// journalWriter: appends run in the background, one event per journal.append and strictly one
// after the other (each names the hash of the one before, which only the activity computes).
type journalWriter struct {
	ctx     workflow.Context
	runID   string
	head    JournalHead
	queue   []pendingEvent
	running bool
	err     error
}

type pendingEvent struct {
	kind string
	turn int
	data map[string]any
}

func newJournalWriter(ctx workflow.Context, runID string, head JournalHead) *journalWriter {
	return &journalWriter{ctx: ctx, runID: runID, head: head}
}

func (j *journalWriter) append(kind string, turn int, data map[string]any) {
	j.queue = append(j.queue, pendingEvent{kind, turn, data})
	if j.running {
		return
	}
	j.running = true
	// An idle writer schedules the append now, before anything the caller schedules next (as the
	// TypeScript kernel's journal does): a context.compaction_failed comes before the turn's call_model.
	first := j.schedule(j.ctx)
	workflow.Go(j.ctx, func(ctx workflow.Context) {
		defer func() { j.running = false }()
		for next := first; next != nil; next = j.schedule(ctx) {
			j.await(ctx, next)
		}
	})
}

type scheduledAppend struct {
	seq    int
	future workflow.Future
}

// schedule starts the next queued append on the current head; nil when none is left or one failed.
func (j *journalWriter) schedule(ctx workflow.Context) *scheduledAppend {
	if len(j.queue) == 0 || j.err != nil {
		j.queue = nil
		return nil
	}
	next := j.queue[0]
	j.queue = j.queue[1:]
	event := JournalEvent{RunID: j.runID, Seq: j.head.NextSeq, Type: next.kind, Turn: next.turn, Data: next.data, PrevHash: j.head.HeadHash}
	appendCtx := activityContext(ctx, 10*time.Second, retry(200*time.Millisecond, 2*time.Second, 10))
	return &scheduledAppend{event.Seq, workflow.ExecuteActivity(appendCtx, actJournalAppend, JournalAppendInput{Events: []JournalEvent{event}})}
}

// await: the append's hash becomes the head the next one names.
func (j *journalWriter) await(ctx workflow.Context, pending *scheduledAppend) {
	var result JournalAppendResult
	if err := pending.future.Get(ctx, &result); err != nil {
		j.err = err
	} else if len(result.Hashes) == 0 {
		j.err = fmt.Errorf("journal.append returned no hash for event %d", pending.seq)
	} else {
		j.head = JournalHead{NextSeq: pending.seq + 1, HeadHash: result.Hashes[0]}
	}
}

// failed: the first failed append, without waiting for the pending ones.
func (j *journalWriter) failed() error { return j.err }

// drain waits for every pending append; returns the first failure.
func (j *journalWriter) drain() (JournalHead, error) {
	if err := workflow.Await(j.ctx, func() bool { return !j.running }); err != nil {
		return j.head, err
	}
	return j.head, j.err
}
