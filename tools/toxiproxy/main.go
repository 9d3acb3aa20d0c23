// Command toxiproxy runs Toxiproxy's API server (github.com/Shopify/toxiproxy/v2) for longrun's
// network faults. It listens on loopback only, prints "ready" once its API accepts connections,
// and exits when its stdin closes, so that it never outlives the harness that started it.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"runtime/debug"
	"strconv"
	"syscall"
	"time"

	"github.com/Shopify/toxiproxy/v2"
	"github.com/rs/zerolog"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintf(os.Stderr, "toxiproxy: %v\n", err)
		os.Exit(1)
	}
}

func run() error {
	host := flag.String("host", "127.0.0.1", "address of the API (loopback only)")
	port := flag.Int("port", 8474, "port of the API (0: a free port)")
	version := flag.Bool("version", false, "print the version and exit")
	flag.Parse()
	if *version {
		fmt.Printf("toxiproxy (longrun) %s\n", toxiproxyVersion())
		return nil
	}
	if ip := net.ParseIP(*host); ip == nil || !ip.IsLoopback() {
		return fmt.Errorf("--host %q: want a loopback address", *host)
	}
	listener, err := net.Listen("tcp", net.JoinHostPort(*host, strconv.Itoa(*port)))
	if err != nil {
		return err
	}
	logger := zerolog.New(os.Stderr).Level(zerolog.WarnLevel)
	server := toxiproxy.NewServer(toxiproxy.NewMetricsContainer(nil), logger)
	api := &http.Server{Handler: server.Routes(), ReadHeaderTimeout: 15 * time.Second}
	served := make(chan error, 1)
	go func() { served <- api.Serve(listener) }()
	fmt.Printf("ready %s\n", listener.Addr())

	stdinClosed := make(chan struct{})
	go func() {
		_, _ = io.Copy(io.Discard, os.Stdin)
		close(stdinClosed)
	}()
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, syscall.SIGINT, syscall.SIGTERM)
	select {
	case err := <-served:
		if !errors.Is(err, http.ErrServerClosed) {
			return err
		}
	case <-stdinClosed:
	case <-signals:
	}
	server.Collection.Clear()
	return api.Close()
}

// toxiproxyVersion is the module version built in (the library's own Version is set by its Makefile).
func toxiproxyVersion() string {
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, dep := range info.Deps {
			if dep.Path == "github.com/Shopify/toxiproxy/v2" {
				return dep.Version
			}
		}
	}
	return "unknown"
}
