// go-kernel: longrun's reference foreign kernel, a Go port of the agent-run workflow on the
// Temporal Go SDK. `go-kernel worker` polls a task queue; `go-kernel replay` replays histories.
package main

import (
	"compress/gzip"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"
	sdklog "go.temporal.io/sdk/log"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"
)

const usage = `usage:
  go-kernel worker [--binary B] [--task-queue Q] [--mock-url URL | --model-url URL --sandbox-url URL] [--max-cached-workflows N]
  go-kernel replay [--binary B] FILE...
binaries: ` + "v0, v1 (default), ungated, split-group, trigger-late, compaction-fatal"

// stopGrace: how long a stopping worker waits for its activities in flight (the TypeScript kernel's worker waits as long).
const stopGrace = 10 * time.Second

// usageError exits 2, like longrun's own usage errors.
type usageError struct{ message string }

func (e usageError) Error() string { return e.message }

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, usage)
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "worker":
		err = runWorker(os.Args[2:])
	case "replay":
		err = runReplay(os.Args[2:])
	case "-h", "--help", "help":
		fmt.Println(usage)
		return
	default:
		err = usageError{fmt.Sprintf("unknown command %q", os.Args[1])}
	}
	if err == nil {
		return
	}
	fmt.Fprintf(os.Stderr, "go-kernel %s: %s\n", os.Args[1], firstLine(err.Error()))
	var bad usageError
	if errors.As(err, &bad) {
		os.Exit(2)
	}
	os.Exit(1)
}

func firstLine(text string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(text), "\n")
	return line
}

// env: the flag when given, else the environment variable, else the fallback.
func env(flagValue, name, fallback string) string {
	if flagValue != "" {
		return flagValue
	}
	if value := os.Getenv(name); value != "" {
		return value
	}
	return fallback
}

func kernelFor(binary string) (kernelOptions, error) {
	options, ok := binaries[binary]
	if !ok {
		return options, usageError{fmt.Sprintf("--binary %s: unknown (known: %s)", binary, strings.Join(binaryIDs, ", "))}
	}
	return options, nil
}

func register(registry worker.WorkflowRegistry, options kernelOptions) {
	registry.RegisterWorkflowWithOptions(agentRunFor(options), workflow.RegisterOptions{Name: workflowType})
}

// quietLogger: the SDK's warnings and errors on stderr, not its per-task chatter.
func quietLogger() sdklog.Logger {
	return sdklog.NewStructuredLogger(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn})))
}

func runWorker(args []string) error {
	flags := flag.NewFlagSet("worker", flag.ContinueOnError)
	flags.SetOutput(io.Discard)
	binary := flags.String("binary", "", "kernel binary (LONGRUN_BINARY, default v1)")
	taskQueue := flags.String("task-queue", "", "task queue (LONGRUN_TASK_QUEUE)")
	mockURL := flags.String("mock-url", "", "a longrun mock-server base URL: model at URL/v1, sandbox at URL/sandbox/v1 (LONGRUN_MOCK_URL)")
	modelURL := flags.String("model-url", "", "OpenAI-compatible base URL (LONGRUN_MODEL_URL)")
	sandboxURL := flags.String("sandbox-url", "", "sandbox base URL (LONGRUN_SANDBOX_URL)")
	cached := flags.String("max-cached-workflows", "", "sticky cache size; 0 replays every workflow task (LONGRUN_MAX_CACHED_WORKFLOWS)")
	if err := flags.Parse(args); err != nil {
		return usageError{err.Error()}
	}
	if flags.NArg() > 0 {
		return usageError{fmt.Sprintf("unexpected argument %q", flags.Arg(0))}
	}
	id := env(*binary, "LONGRUN_BINARY", "v1")
	options, err := kernelFor(id)
	if err != nil {
		return err
	}
	queue := env(*taskQueue, "LONGRUN_TASK_QUEUE", "")
	if queue == "" {
		return usageError{"--task-queue (or LONGRUN_TASK_QUEUE) is required"}
	}
	mock := strings.TrimRight(env(*mockURL, "LONGRUN_MOCK_URL", ""), "/")
	model, sandbox := env(*modelURL, "LONGRUN_MODEL_URL", ""), env(*sandboxURL, "LONGRUN_SANDBOX_URL", "")
	if mock != "" {
		model, sandbox = env(*modelURL, "LONGRUN_MODEL_URL", mock+"/v1"), env(*sandboxURL, "LONGRUN_SANDBOX_URL", mock+"/sandbox/v1")
	}
	for name, value := range map[string]string{"model URL (--model-url or --mock-url)": model, "sandbox URL (--sandbox-url or --mock-url)": sandbox} {
		if !strings.HasPrefix(value, "http://") && !strings.HasPrefix(value, "https://") {
			return usageError{fmt.Sprintf("the %s must be an http(s) URL, got %q", name, value)}
		}
	}
	if text := env(*cached, "LONGRUN_MAX_CACHED_WORKFLOWS", ""); text != "" {
		size, err := strconv.Atoi(text)
		if err != nil || size < 0 {
			return usageError{fmt.Sprintf("--max-cached-workflows %s: want a whole number >= 0", text)}
		}
		worker.SetStickyWorkflowCacheSize(size)
	}
	address := os.Getenv("TEMPORAL_ADDRESS")
	if address == "" {
		return usageError{"TEMPORAL_ADDRESS is not set: the worker needs a cluster to poll"}
	}
	namespace := env("", "TEMPORAL_NAMESPACE", "default")
	// LONGRUN_WORKER_IDENTITY: the identity longrun reads back from the histories (which binary took a task); else the SDK's pid@host.
	temporal, err := client.Dial(client.Options{
		HostPort: address, Namespace: namespace, Identity: os.Getenv("LONGRUN_WORKER_IDENTITY"),
		Logger: quietLogger(), DataConverter: plainDataConverter(),
	})
	if err != nil {
		return fmt.Errorf("cannot reach Temporal at %s: %w", address, err)
	}
	defer temporal.Close()
	// A graceful stop (SIGTERM: a rolling upgrade) lets activities in flight finish and report,
	// rather than leave them to their start-to-close timeouts.
	w := worker.New(temporal, queue, worker.Options{WorkerStopTimeout: stopGrace})
	register(w, options)
	acts := &activities{modelBaseURL: model, sandboxBaseURL: sandbox, apiKey: os.Getenv("LONGRUN_API_KEY"), client: &http.Client{}}
	w.RegisterActivityWithOptions(acts.CallModel, activity.RegisterOptions{Name: actCallModel})
	w.RegisterActivityWithOptions(acts.CompactContext, activity.RegisterOptions{Name: actCompactContext})
	w.RegisterActivityWithOptions(acts.RunTool, activity.RegisterOptions{Name: actRunTool})
	w.RegisterActivityWithOptions(JournalAppend, activity.RegisterOptions{Name: actJournalAppend})
	if err := w.Start(); err != nil {
		return fmt.Errorf("worker did not start: %w", err)
	}
	fmt.Printf("go-kernel worker: binary %s on task queue %s at %s/%s, model at %s, sandbox at %s\n", id, queue, address, namespace, model, sandbox)
	<-worker.InterruptCh()
	w.Stop()
	return nil
}

func runReplay(args []string) error {
	flags := flag.NewFlagSet("replay", flag.ContinueOnError)
	flags.SetOutput(io.Discard)
	binary := flags.String("binary", "v1", "kernel binary to replay on")
	if err := flags.Parse(args); err != nil {
		return usageError{err.Error()}
	}
	options, err := kernelFor(*binary)
	if err != nil {
		return err
	}
	if flags.NArg() == 0 {
		return usageError{"no history files given"}
	}
	replayer, err := worker.NewWorkflowReplayerWithOptions(worker.WorkflowReplayerOptions{DataConverter: plainDataConverter()})
	if err != nil {
		return err
	}
	register(replayer, options)
	for _, file := range flags.Args() {
		history, err := readHistory(file)
		if err != nil {
			return fmt.Errorf("%s: %w", file, err)
		}
		// The replayer's own log would repeat the error with its stack: the one line below says it.
		silent := sdklog.NewStructuredLogger(slog.New(slog.NewTextHandler(io.Discard, nil)))
		if err := replayer.ReplayWorkflowHistory(silent, history); err != nil {
			return fmt.Errorf("%s does not replay on %s: %s", file, *binary, nondeterminismLine(err.Error()))
		}
	}
	fmt.Printf("go-kernel replay: %d histories replay on %s\n", flags.NArg(), *binary)
	return nil
}

// nondeterminismLine: the line of a replay error that names the nondeterminism, else its first.
func nondeterminismLine(text string) string {
	for _, line := range strings.Split(text, "\n") {
		lower := strings.ToLower(line)
		if strings.Contains(lower, "nondetermin") || strings.Contains(line, "TMPRL1100") {
			return strings.TrimSpace(line)
		}
	}
	return firstLine(text)
}

// readHistory reads a history as `temporal workflow show --output json` or longrun writes it
// (gzipped when the name ends in .gz).
func readHistory(file string) (*historypb.History, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var reader io.Reader = f
	if strings.HasSuffix(file, ".gz") {
		gz, err := gzip.NewReader(f)
		if err != nil {
			return nil, err
		}
		defer gz.Close()
		reader = gz
	}
	return client.HistoryFromJSON(reader, client.HistoryJSONOptions{})
}

// plainDataConverter: the SDK's default converters, with JSON written without HTML escapes,
// so a payload's bytes are the JSON.stringify bytes the kernel and longrun's checks measure.
func plainDataConverter() converter.DataConverter {
	return converter.NewCompositeDataConverter(
		converter.NewNilPayloadConverter(),
		converter.NewByteSlicePayloadConverter(),
		converter.NewProtoJSONPayloadConverter(),
		converter.NewProtoPayloadConverter(),
		&plainJSONConverter{},
	)
}
