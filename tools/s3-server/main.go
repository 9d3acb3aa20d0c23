// Command s3-server serves a real S3 API (github.com/johannesboyne/gofakes3, MIT) for longrun's
// external storage: payloads a worker offloads through the SDK's S3 driver land here. Objects
// live in memory and are gone when the process ends. It listens on loopback only, prints
// "ready <address>" once it accepts connections, and exits on SIGTERM or SIGINT, or when its
// stdin closes, so that it never outlives the harness that started it.
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

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"
)

const modulePath = "github.com/johannesboyne/gofakes3"

func main() {
	if err := run(); err != nil {
		fmt.Fprintf(os.Stderr, "s3-server: %v\n", err)
		os.Exit(1)
	}
}

func run() error {
	host := flag.String("host", "127.0.0.1", "address to listen on (loopback only)")
	port := flag.Int("port", 0, "port to listen on (0: a free port)")
	version := flag.Bool("version", false, "print the version and exit")
	flag.Parse()
	if *version {
		fmt.Printf("s3-server (longrun) gofakes3 %s\n", moduleVersion())
		return nil
	}
	if ip := net.ParseIP(*host); ip == nil || !ip.IsLoopback() {
		return fmt.Errorf("--host %q: want a loopback address", *host)
	}
	listener, err := net.Listen("tcp", net.JoinHostPort(*host, strconv.Itoa(*port)))
	if err != nil {
		return err
	}
	// Before the ready line: a SIGTERM sent as soon as it is read must find the handler in place.
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, syscall.SIGINT, syscall.SIGTERM)
	faker := gofakes3.New(s3mem.New(), gofakes3.WithLogger(gofakes3.DiscardLog()))
	server := &http.Server{Handler: faker.Server(), ReadHeaderTimeout: 15 * time.Second}
	served := make(chan error, 1)
	go func() { served <- server.Serve(listener) }()
	fmt.Printf("ready %s\n", listener.Addr())

	stdinClosed := make(chan struct{})
	go func() {
		_, _ = io.Copy(io.Discard, os.Stdin)
		close(stdinClosed)
	}()
	select {
	case err := <-served:
		if !errors.Is(err, http.ErrServerClosed) {
			return err
		}
	case <-stdinClosed:
	case <-signals:
	}
	return server.Close()
}

// moduleVersion is the gofakes3 version built in.
func moduleVersion() string {
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, dep := range info.Deps {
			if dep.Path == modulePath {
				return dep.Version
			}
		}
	}
	return "unknown"
}
