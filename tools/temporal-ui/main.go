// Command temporal-ui serves Temporal's Web UI (the ui-server module, its built assets embedded)
// for longrun's embedded server, so a run's histories and state cards can be opened in the UI
// a team already uses. It listens on loopback only and exits with the process that started it.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/temporalio/ui-server/v2/server"
	"github.com/temporalio/ui-server/v2/server/config"
	"github.com/temporalio/ui-server/v2/server/server_options"
)

func main() {
	frontend := flag.String("frontend", "", "the Temporal frontend's gRPC address, host:port (required)")
	port := flag.Int("port", 0, "the port to serve the UI on, on 127.0.0.1 (required)")
	namespace := flag.String("namespace", "default", "the namespace the UI opens on")
	flag.Parse()
	if *frontend == "" || *port <= 0 {
		fmt.Fprintln(os.Stderr, "temporal-ui: --frontend HOST:PORT and --port N are required")
		os.Exit(2)
	}
	cfg := &config.Config{
		TemporalGRPCAddress: *frontend,
		Host:                "127.0.0.1",
		Port:                *port,
		EnableUI:            true,
		DefaultNamespace:    *namespace,
		DisableNewsFetch:    true,
		HideLogs:            true,
		Distribution:        "longrun",
		CORS:                config.CORS{CookieInsecure: true},
	}
	ui := server.NewServer(server_options.WithConfigProvider(cfg))
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGINT, syscall.SIGTERM)
	go exitWithParent(stop)
	failed := make(chan error, 1)
	go func() { failed <- ui.Start() }()
	select {
	case err := <-failed:
		fmt.Fprintf(os.Stderr, "temporal-ui: cannot serve on 127.0.0.1:%d: %v\n", *port, err)
		os.Exit(1)
	case <-stop:
		ui.Stop()
	}
}

// exitWithParent stops the UI when the process that started it dies without stopping it.
func exitWithParent(stop chan<- os.Signal) {
	parent := os.Getppid()
	for range time.Tick(time.Second) {
		if os.Getppid() != parent {
			stop <- syscall.SIGTERM
			return
		}
	}
}
