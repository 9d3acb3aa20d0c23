// The pure, workflow-safe functions of the kernel (src/kernel/context in longrun): limits,
// the request, elision, the payload guard, turn groups, the rebuild, the card and the digest.
package main

import (
	"fmt"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

var limitFields = []string{"blobLimitBytes", "compactionTriggerBytes", "continueAsNewBytes", "cardMaxBytes", "tailMaxBytes"}

// resolveLimits overlays the run's overrides on the spec's defaults; an error names the first bad field.
func resolveLimits(overrides map[string]any) (KernelLimits, error) {
	limits := KernelLimits{defaultBlobLimit, defaultTrigger, defaultCANBytes, defaultCardMax, defaultTailMax}
	fields := map[string]*int{
		"blobLimitBytes": &limits.BlobLimitBytes, "compactionTriggerBytes": &limits.CompactionTriggerBytes,
		"continueAsNewBytes": &limits.ContinueAsNewBytes, "cardMaxBytes": &limits.CardMaxBytes, "tailMaxBytes": &limits.TailMaxBytes,
	}
	names := make([]string, 0, len(overrides))
	for name := range overrides {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if fields[name] == nil {
			return limits, fmt.Errorf("limits.%s is not a known limit", name)
		}
	}
	for _, name := range limitFields {
		value, ok := overrides[name]
		if !ok || value == nil {
			continue
		}
		number, isNumber := value.(float64)
		if !isNumber || number != math.Trunc(number) || number <= 0 || number > maxSafeInteger {
			return limits, fmt.Errorf("limits.%s must be a positive integer, got %s", name, string(marshalPlain(value)))
		}
		*fields[name] = int(number)
	}
	return limits, nil
}

// guardTargetBytes: the blob limit less 1/32 of it, room for Temporal's envelope.
func guardTargetBytes(l KernelLimits) int {
	return l.BlobLimitBytes - int(math.Ceil(float64(l.BlobLimitBytes)/32))
}

// bigItemThresholdBytes: v0's notion of a big item, above 1/16 of the blob limit.
func bigItemThresholdBytes(l KernelLimits) int { return l.BlobLimitBytes / 16 }

var toolDescriptions = map[string]string{
	"screenshot": "Take a screenshot of the screen.",
	"shell":      "Run a shell command and return its output.",
	"read_file":  "Read a file and return its content.",
	"list_files": "List the files under a directory.",
	"diff":       "Show the changes made to the workspace.",
}

func toolDefinitions() []ToolDefinition {
	defs := make([]ToolDefinition, 0, len(toolNames))
	for _, name := range toolNames {
		var def ToolDefinition
		def.Type = "function"
		def.Function.Name = name
		def.Function.Description = toolDescriptions[name]
		// encoding/json writes map keys sorted; the TS kernel writes type, properties, required:
		// the same bytes in another order, so every size is the same.
		def.Function.Parameters = map[string]any{
			"type":       "object",
			"properties": map[string]any{"seed": map[string]any{"type": "integer"}, "bytes": map[string]any{"type": "integer"}},
			"required":   []string{"seed", "bytes"},
		}
		defs = append(defs, def)
	}
	return defs
}

func buildAgentRequest(runID string, turn int, model string, messages []Message) ChatRequest {
	if messages == nil {
		messages = []Message{}
	}
	return ChatRequest{
		Model: model, Messages: messages, Tools: toolDefinitions(),
		Metadata: &RequestMetadata{RunID: runID, Turn: strconv.Itoa(turn), Purpose: "agent"},
	}
}

// overheadBytes: a payload's bytes without its message list (serialized as `[]`, 2 bytes).
func overheadBytes(payloadWithEmptyMessages any) int { return jsonBytes(payloadWithEmptyMessages) - 2 }

// formatCount: 812345 -> "812,345".
func formatCount(value int) string {
	digits := strconv.Itoa(abs(value))
	var out strings.Builder
	for i, d := range digits {
		if i > 0 && (len(digits)-i)%3 == 0 {
			out.WriteByte(',')
		}
		out.WriteRune(d)
	}
	if value < 0 {
		return "-" + out.String()
	}
	return out.String()
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// --- elision

type elidableKind string

const (
	kindScreenshot    elidableKind = "screenshot"
	kindToolOutput    elidableKind = "tool_output"
	kindAssistantText elidableKind = "assistant_text"
)

var kindLabel = map[elidableKind]string{kindScreenshot: "screenshot", kindToolOutput: "tool output", kindAssistantText: "assistant text"}

type elidableItem struct {
	Message int
	Part    int // -1 when the message's content is a string
	Kind    elidableKind
	Bytes   int
	Savings int
}

const placeholderPrefix = "[elided: "

func placeholder(kind elidableKind, bytes int) string {
	return placeholderPrefix + kindLabel[kind] + ", " + formatCount(bytes) + " bytes]"
}

func isPlaceholder(text string) bool { return strings.HasPrefix(text, placeholderPrefix) }

func placeholderPart(kind elidableKind, bytes int) ContentPart {
	return ContentPart{Type: "text", Text: placeholder(kind, bytes)}
}

func stringItem(message int, kind elidableKind, text string) elidableItem {
	bytes := len(text)
	return elidableItem{message, -1, kind, bytes, jsonBytes(text) - jsonBytes(placeholder(kind, bytes))}
}

// listElidableItems: every item of the given kinds in tool and assistant messages, oldest first.
func listElidableItems(messages []Message, kinds map[elidableKind]bool) []elidableItem {
	var items []elidableItem
	for index, message := range messages {
		switch message.Role {
		case "assistant":
			if kinds[kindAssistantText] && !message.Content.IsParts && message.Content.Text != nil && !isPlaceholder(*message.Content.Text) {
				items = append(items, stringItem(index, kindAssistantText, *message.Content.Text))
			}
		case "tool":
			if !message.Content.IsParts {
				if message.Content.Text != nil && kinds[kindToolOutput] && !isPlaceholder(*message.Content.Text) {
					items = append(items, stringItem(index, kindToolOutput, *message.Content.Text))
				}
				continue
			}
			for partIndex, part := range message.Content.Parts {
				kind := kindToolOutput
				text := part.Text
				if part.Type == "image_url" {
					kind, text = kindScreenshot, part.ImageURL
				}
				if !kinds[kind] || (part.Type == "text" && isPlaceholder(part.Text)) {
					continue
				}
				bytes := len(text)
				savings := jsonBytes(part) - jsonBytes(placeholderPart(kind, bytes))
				items = append(items, elidableItem{index, partIndex, kind, bytes, savings})
			}
		}
	}
	return items
}

// screenshotJSONBytes: what screenshots take up in these messages (for a guard blind to them).
func screenshotJSONBytes(messages []Message) int {
	total := 0
	for _, message := range messages {
		if (message.Role == "tool" || message.Role == "user") && message.Content.IsParts {
			for _, part := range message.Content.Parts {
				if part.Type == "image_url" {
					total += jsonBytes(part)
				}
			}
		}
	}
	return total
}

// elideItems: a copy of messages with the items replaced by placeholders.
func elideItems(messages []Message, items []elidableItem) []Message {
	result := append([]Message{}, messages...)
	for _, item := range items {
		message := result[item.Message]
		text := placeholder(item.Kind, item.Bytes)
		if item.Part < 0 {
			message.Content = textContent(text)
		} else {
			parts := append([]ContentPart{}, message.Content.Parts...)
			parts[item.Part] = placeholderPart(item.Kind, item.Bytes)
			message.Content = partsContent(parts)
		}
		result[item.Message] = message
	}
	return result
}

// pickUntilFits picks items in order until measured drops to target.
func pickUntilFits(candidates []elidableItem, measured, target int) ([]elidableItem, int) {
	var picked []elidableItem
	for _, item := range candidates {
		if measured <= target {
			break
		}
		if item.Savings <= 0 {
			continue
		}
		picked = append(picked, item)
		measured -= item.Savings
	}
	return picked, measured
}

// largestFirst: largest first; the older item first among equals.
func largestFirst(items []elidableItem) []elidableItem {
	sorted := append([]elidableItem{}, items...)
	sort.SliceStable(sorted, func(i, j int) bool {
		a, b := sorted[i], sorted[j]
		if a.Bytes != b.Bytes {
			return a.Bytes > b.Bytes
		}
		if a.Message != b.Message {
			return a.Message < b.Message
		}
		return a.Part < b.Part
	})
	return sorted
}

// --- the payload guard

type guardPolicy struct {
	exhaustive          bool
	countsScreenshots   bool
	elidesAssistantText bool
}

type guardResult struct {
	messages    []Message
	bytesBefore int
	bytesAfter  int
	elided      []elidableItem
	fits        bool
}

func messagesBytes(messages []Message) int {
	if messages == nil {
		messages = []Message{}
	}
	return jsonBytes(messages)
}

func guardMessages(messages []Message, overhead, target, bigItem int, policy guardPolicy) guardResult {
	bytesBefore := overhead + messagesBytes(messages)
	blind := 0
	if !policy.countsScreenshots {
		blind = screenshotJSONBytes(messages)
	}
	measured := bytesBefore - blind
	if measured <= target {
		return guardResult{append([]Message{}, messages...), bytesBefore, bytesBefore, nil, true}
	}
	kinds := map[elidableKind]bool{kindToolOutput: true}
	if policy.countsScreenshots {
		kinds[kindScreenshot] = true
	}
	if policy.elidesAssistantText {
		kinds[kindAssistantText] = true
	}
	items := listElidableItems(messages, kinds)
	var big []elidableItem
	for _, item := range items {
		if item.Bytes > bigItem {
			big = append(big, item)
		}
	}
	picked, left := pickUntilFits(big, measured, target)
	if left > target && policy.exhaustive {
		isPicked := map[[2]int]bool{}
		for _, item := range picked {
			isPicked[[2]int{item.Message, item.Part}] = true
		}
		var rest []elidableItem
		for _, item := range items {
			if !isPicked[[2]int{item.Message, item.Part}] {
				rest = append(rest, item)
			}
		}
		more, stillLeft := pickUntilFits(largestFirst(rest), left, target)
		picked, left = append(picked, more...), stillLeft
	}
	elided := elideItems(messages, picked)
	return guardResult{elided, bytesBefore, overhead + messagesBytes(elided), picked, left <= target}
}

// --- turn groups and the rebuild

type splitHistory struct {
	systemPrompt Message
	userRequest  Message
	groups       [][]Message
}

func splitTurnGroups(messages []Message) (splitHistory, error) {
	if len(messages) < 1 || messages[0].Role != "system" {
		return splitHistory{}, fmt.Errorf("messages[0] must be the system prompt")
	}
	if len(messages) < 2 || messages[1].Role != "user" {
		return splitHistory{}, fmt.Errorf("messages[1] must be the user's request")
	}
	split := splitHistory{systemPrompt: messages[0], userRequest: messages[1]}
	for _, message := range messages[2:] {
		switch {
		case message.Role == "system": // a card of an earlier compaction: displaced by the new one
		case message.Role == "tool" && len(split.groups) > 0:
			last := len(split.groups) - 1
			split.groups[last] = append(split.groups[last], message)
		default:
			split.groups = append(split.groups, []Message{message})
		}
	}
	return split, nil
}

type rebuildOptions struct {
	splitsGroups  bool
	tailMinGroups int
	tailMaxGroups int
}

var specRebuild = rebuildOptions{splitsGroups: false, tailMinGroups: tailMinGroups, tailMaxGroups: tailMaxGroups}

type rebuilt struct {
	messages []Message
	kept     int
	dropped  int
}

const cardFrame = "This is a record of displaced work: the earlier turns of this run were compacted into the state card below. " +
	"Identifiers in it (paths, ids, hashes, numbers) are verbatim; the turns after it are verbatim too. " +
	"Continue the task from it."

func cardMessage(card string) Message {
	return Message{Role: "system", Content: textContent(cardFrame + "\n\n" + card)}
}

func rebuildMessages(history []Message, card string, tailMaxBytes int, options rebuildOptions) (rebuilt, error) {
	split, err := splitTurnGroups(history)
	if err != nil {
		return rebuilt{}, err
	}
	kept := tailGroupCount(split.groups, tailMaxBytes, options)
	var tail []Message
	for _, group := range split.groups[len(split.groups)-kept:] {
		tail = append(tail, group...)
	}
	if tailBytes := messagesBytes(tail); tailBytes > tailMaxBytes {
		all := map[elidableKind]bool{kindScreenshot: true, kindToolOutput: true, kindAssistantText: true}
		picked, _ := pickUntilFits(largestFirst(listElidableItems(tail, all)), tailBytes, tailMaxBytes)
		tail = elideItems(tail, picked)
	}
	if options.splitsGroups && len(tail) > 0 {
		tail = tail[1:]
	}
	messages := append([]Message{split.systemPrompt, split.userRequest, cardMessage(card)}, tail...)
	return rebuilt{messages, kept, len(split.groups) - kept}, nil
}

// tailGroupCount: whole groups from the end, the minimum whatever their size, then while the cap holds.
func tailGroupCount(groups [][]Message, tailMaxBytes int, options rebuildOptions) int {
	most := min(len(groups), options.tailMaxGroups)
	// A JSON array of n messages is 2 + sum(message) + (n - 1) commas = 1 + sum(message + 1).
	bytes, count := 1, 0
	for count < most {
		groupBytes := 0
		for _, message := range groups[len(groups)-1-count] {
			groupBytes += jsonBytes(message) + 1
		}
		if count >= options.tailMinGroups && bytes+groupBytes > tailMaxBytes {
			break
		}
		bytes += groupBytes
		count++
	}
	return count
}

// cardProblem: why a card is not acceptable (size, the six sections in order), or "".
func cardProblem(card string, maxBytes int) string {
	if len(card) > maxBytes {
		return fmt.Sprintf("card is %d bytes, over the %d-byte limit", len(card), maxBytes)
	}
	lines := strings.Split(card, "\n")
	first := ""
	var headings []string
	for _, line := range lines {
		line = strings.TrimRightFunc(line, unicode.IsSpace)
		if first == "" && strings.TrimSpace(line) != "" {
			first = line
		}
		if strings.HasPrefix(line, "## ") {
			headings = append(headings, line)
		}
	}
	if first != cardSections[0] {
		return fmt.Sprintf(`card must start with "%s"`, cardSections[0])
	}
	expected := strings.Join(cardSections, " | ")
	if got := strings.Join(headings, " | "); got != expected {
		return fmt.Sprintf(`card sections must be exactly "%s", got "%s"`, expected, got)
	}
	return ""
}

// --- the digest the compaction model reads

const digestArgumentBytes = 256
const digestMaxBytes = 96 * 1024

var inlineImage = regexp.MustCompile(`(?i)data:image/[a-z0-9.+-]+;base64,[a-z0-9+/=]*`)

func buildDigest(messages []Message) string {
	blocks := make([]string, len(messages))
	screenshots := 0
	for i, message := range messages {
		blocks[i] = renderMessage(message, i)
		screenshots += screenshotCount(message)
	}
	header := fmt.Sprintf("Digest of %d messages; %d screenshots counted, not included.", len(messages), screenshots)
	return strings.Join(append([]string{header}, capBlocks(blocks, digestMaxBytes-len(header))...), "\n\n")
}

func renderMessage(message Message, index int) string {
	role := message.Role
	if role == "tool" {
		role = "tool result for " + message.ToolCallID
	}
	lines := []string{fmt.Sprintf("### [%d] %s", index, role)}
	if text := messageText(message); text != "" {
		lines = append(lines, capText(text, digestHeadBytes, digestTailBytes))
	}
	if message.Role == "assistant" {
		for _, call := range message.ToolCalls {
			lines = append(lines, fmt.Sprintf("tool call %s: %s %s", call.ID, call.Function.Name, capText(call.Function.Arguments, digestArgumentBytes, 0)))
		}
	}
	if n := screenshotCount(message); n > 0 {
		plural := "s"
		if n == 1 {
			plural = ""
		}
		lines = append(lines, fmt.Sprintf("(%d screenshot%s, not included)", n, plural))
	}
	return strings.Join(lines, "\n")
}

func messageText(message Message) string {
	if !message.Content.IsParts {
		if message.Content.Text == nil {
			return ""
		}
		return *message.Content.Text
	}
	var texts []string
	for _, part := range message.Content.Parts {
		if part.Type == "text" {
			texts = append(texts, part.Text)
		}
	}
	return strings.Join(texts, "\n")
}

func screenshotCount(message Message) int {
	if (message.Role != "tool" && message.Role != "user") || !message.Content.IsParts {
		return 0
	}
	n := 0
	for _, part := range message.Content.Parts {
		if part.Type == "image_url" {
			n++
		}
	}
	return n
}

func capText(raw string, headBytes, tailBytes int) string {
	text := inlineImage.ReplaceAllString(raw, "[inline image omitted]")
	if len(text) <= headBytes+tailBytes {
		return text
	}
	head := utf8Head(text, headBytes)
	tail := ""
	if tailBytes > 0 {
		tail = utf8Tail(text, tailBytes)
	}
	omitted := len(text) - len(head) - len(tail)
	out := fmt.Sprintf("%s\n[... %s bytes omitted ...]", head, formatCount(omitted))
	if tail != "" {
		out += "\n" + tail
	}
	return out
}

// utf8Head: the longest prefix within maxBytes, never splitting a character.
func utf8Head(text string, maxBytes int) string {
	end := 0
	for end < len(text) {
		_, width := utf8.DecodeRuneInString(text[end:])
		if end+width > maxBytes {
			break
		}
		end += width
	}
	return text[:end]
}

// utf8Tail: the longest suffix within maxBytes, never splitting a character.
func utf8Tail(text string, maxBytes int) string {
	start := len(text)
	for start > 0 {
		_, width := utf8.DecodeLastRuneInString(text[:start])
		if len(text)-start+width > maxBytes {
			break
		}
		start -= width
	}
	return text[start:]
}

// capBlocks: blocks from the start up to half the budget, then from the end while the rest lasts.
func capBlocks(blocks []string, budget int) []string {
	sizes := make([]int, len(blocks))
	total := 0
	for i, block := range blocks {
		sizes[i] = len(block) + 2
		total += sizes[i]
	}
	if total <= budget {
		return blocks
	}
	used, head := 0, 0
	for head < len(blocks) && float64(used+sizes[head]) <= float64(budget)/2 {
		used += sizes[head]
		head++
	}
	tail := len(blocks)
	for tail > head && used+sizes[tail-1] <= budget {
		tail--
		used += sizes[tail]
	}
	out := append([]string{}, blocks[:head]...)
	out = append(out, fmt.Sprintf("[... %d messages omitted ...]", tail-head))
	return append(out, blocks[tail:]...)
}

func compactionPrompt(cardMaxBytes int) string {
	lines := []string{
		"You compact the history of a long-running agent into a state card that replaces the displaced turns.",
		fmt.Sprintf("Answer with the card only: Markdown of at most %d bytes with exactly these sections, in this order, each once:", cardMaxBytes),
	}
	lines = append(lines, cardSections...)
	lines = append(lines,
		"Carry every identifier verbatim: paths, ids, hashes, numbers, commands, URLs. Keep verifications verbatim;",
		"summarise reasoning. Screenshots are only counted in the digest; do not invent their content.")
	return strings.Join(lines, "\n")
}

// compactionModel: the compaction role, else the judge model, else the env model, else the agent's own.
func compactionModel(settings RunSettings, envModel string) string {
	var candidates []string
	if settings.Compaction != nil && settings.Compaction.Model != nil {
		candidates = append(candidates, *settings.Compaction.Model)
	}
	if settings.Judge != nil && settings.Judge.Model != nil {
		candidates = append(candidates, *settings.Judge.Model)
	}
	candidates = append(candidates, envModel)
	for _, model := range candidates {
		if strings.TrimSpace(model) != "" {
			return model
		}
	}
	return settings.Agent.Model
}
