package main

// `temporal-server postgres`: a throwaway PostgreSQL cluster for the embedded server. It runs
// initdb into a temporary folder, starts postgres on a free loopback port, creates and migrates
// Temporal's two databases with the server module's own SQL tool, and prints one line:
//
//	ready postgres=127.0.0.1:PORT pid=PID dir=DIR
//
// It then reads commands on stdin: `stop` (a fast shutdown, the data kept; answers `stopped`) and
// `start` (the same folder and port again; answers `ready ...`). End of stdin, SIGTERM, SIGINT or
// the death of its parent stop PostgreSQL and remove the folder, so no cluster outlives longrun:
// also in the middle of the start, whose initdb and schema tool are then killed, group and all.

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"os/user"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	"go.temporal.io/server/common/persistence/sql/sqlplugin/postgresql"
	sqltool "go.temporal.io/server/tools/sql"
)

// postgresUser is the cluster's superuser, the one the server connects as (trust on loopback).
const postgresUser = "temporal"

// Temporal's two stores and the embedded schema each is migrated with.
var postgresDatabases = []struct{ name, schema string }{
	{"temporal", "postgresql/v12/temporal"},
	{"temporal_visibility", "postgresql/v12/visibility"},
}

// pgCluster is one PostgreSQL data folder and the postmaster running on it.
type pgCluster struct {
	binDir  string
	dir     string
	port    int
	account *syscall.Credential
	process *exec.Cmd
	exited  chan struct{}
	// Done once this supervisor is told to stop: the start's steps give up.
	stopped context.Context
}

func runPostgres(args []string) error {
	fs := flag.NewFlagSet("postgres", flag.ContinueOnError)
	binDir := fs.String("bin-dir", "", "folder with initdb and postgres (e.g. /usr/lib/postgresql/15/bin)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *binDir == "" {
		return errors.New("postgres: --bin-dir is required")
	}
	// Out of longrun's process group, so a terminal's Ctrl-C leaves the database to longrun's teardown.
	_ = syscall.Setpgid(0, 0)
	// A write to a longrun that is gone must fail, not end this process before it removes the cluster.
	signal.Ignore(syscall.SIGPIPE)
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGINT, syscall.SIGTERM)
	go exitWithParent(stop)
	stopped, cancel := context.WithCancel(context.Background())
	go func() { <-stop; cancel() }()

	c := &pgCluster{binDir: *binDir, stopped: stopped}
	defer c.remove()
	timings := ""
	for _, step := range []struct {
		name string
		run  func() error
	}{{"initdb", c.create}, {"start", c.start}, {"schema", c.setupSchema}} {
		began := time.Now()
		if err := step.run(); err != nil {
			if stopped.Err() != nil {
				return fmt.Errorf("stopped during %s: the cluster is removed", step.name)
			}
			return err
		}
		timings += fmt.Sprintf(" %s=%dms", step.name, time.Since(began).Milliseconds())
	}
	// On stderr, which longrun reads only when something fails: what a start costs here.
	fmt.Fprintf(os.Stderr, "postgres timings:%s\n", timings)
	c.announce()

	commands := make(chan string)
	go func() {
		scanner := bufio.NewScanner(os.Stdin)
		for scanner.Scan() {
			commands <- scanner.Text()
		}
		close(commands)
	}()
	for {
		select {
		case <-stopped.Done():
			return nil
		case <-c.exited:
			return errors.New("postgres exited by itself")
		case command, open := <-commands:
			if !open {
				return nil
			}
			if err := c.obey(command); err != nil {
				return err
			}
		}
	}
}

func (c *pgCluster) obey(command string) error {
	switch command {
	case "stop":
		c.shutdown()
		fmt.Println("stopped")
		return nil
	case "start":
		if err := c.start(); err != nil {
			return err
		}
		c.announce()
		return nil
	default:
		return fmt.Errorf("postgres: unknown command %q (want stop or start)", command)
	}
}

func (c *pgCluster) announce() {
	fmt.Printf("ready postgres=%s pid=%d dir=%s\n", c.address(), c.process.Process.Pid, c.dir)
}

func (c *pgCluster) address() string {
	return net.JoinHostPort("127.0.0.1", strconv.Itoa(c.port))
}

// create makes the folder and the cluster in it, owned by an unprivileged account when this
// process is root: PostgreSQL refuses to run as root.
func (c *pgCluster) create() error {
	var err error
	if c.account, err = unprivilegedAccount(); err != nil {
		return err
	}
	if c.port, err = freePort("127.0.0.1"); err != nil {
		return err
	}
	if c.dir, err = os.MkdirTemp("", "longrun-postgres-"); err != nil {
		return err
	}
	if c.account != nil {
		if err := os.Chown(c.dir, int(c.account.Uid), int(c.account.Gid)); err != nil {
			return err
		}
	}
	initdb := asGroup(c.command(c.stopped, "initdb", "-D", c.dataDir(), "-U", postgresUser, "--auth=trust", "--encoding=UTF8", "--locale=C", "--no-sync"))
	if out, err := initdb.CombinedOutput(); err != nil {
		return fmt.Errorf("initdb: %v: %s", err, out)
	}
	return nil
}

func (c *pgCluster) dataDir() string { return filepath.Join(c.dir, "data") }

// start runs the postmaster on loopback only, its socket inside the folder, and waits until it
// accepts connections.
func (c *pgCluster) start() error {
	log, err := os.OpenFile(filepath.Join(c.dir, "postgres.log"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	defer log.Close()
	c.process = c.command(context.Background(), "postgres", "-D", c.dataDir(), "-p", strconv.Itoa(c.port),
		"-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories="+c.dir, "-c", "max_connections=200")
	c.process.Stdout, c.process.Stderr = log, log
	if err := c.process.Start(); err != nil {
		return fmt.Errorf("starting postgres: %w", err)
	}
	c.exited = make(chan struct{})
	go func(process *exec.Cmd, exited chan struct{}) { _ = process.Wait(); close(exited) }(c.process, c.exited)
	deadline := time.Now().Add(30 * time.Second)
	for {
		ready := exec.Command(filepath.Join(c.binDir, "pg_isready"), "-q", "-h", "127.0.0.1", "-p", strconv.Itoa(c.port))
		if ready.Run() == nil {
			return nil
		}
		select {
		case <-c.exited:
			out, _ := os.ReadFile(filepath.Join(c.dir, "postgres.log"))
			return fmt.Errorf("postgres exited while starting: %s", out)
		case <-c.stopped.Done():
			return c.stopped.Err()
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return errors.New("postgres did not accept connections within 30s")
		}
	}
}

// setupSchema runs Temporal's SQL tool in a child process: the tool exits the process on a failure,
// and this one must live on to remove the cluster.
func (c *pgCluster) setupSchema() error {
	self, err := os.Executable()
	if err != nil {
		return err
	}
	tool := asGroup(exec.CommandContext(c.stopped, self, "postgres-schema", "--address", c.address()))
	if out, err := tool.CombinedOutput(); err != nil {
		return fmt.Errorf("setting up Temporal's schema: %v: %s", err, out)
	}
	return nil
}

// shutdown is PostgreSQL's fast shutdown (SIGINT), then immediate (SIGQUIT) after 10 s.
func (c *pgCluster) shutdown() {
	if c.process == nil || c.process.Process == nil {
		return
	}
	_ = c.process.Process.Signal(syscall.SIGINT)
	select {
	case <-c.exited:
	case <-time.After(10 * time.Second):
		_ = c.process.Process.Signal(syscall.SIGQUIT)
		<-c.exited
	}
	// A stopped cluster is not one that exited by itself: nil channels never fire in a select.
	c.process, c.exited = nil, nil
}

func (c *pgCluster) remove() {
	c.shutdown()
	if c.dir != "" {
		_ = os.RemoveAll(c.dir)
	}
}

// asGroup makes a step's command, when the supervisor is stopped (a CommandContext on c.stopped),
// end with every process it started: it leads a process group of its own, killed as a whole
// (initdb runs postgres in single-user mode under a shell).
func asGroup(cmd *exec.Cmd) *exec.Cmd {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	return cmd
}

// command runs one of PostgreSQL's programs; ctx ends it (context.Background: only a shutdown does).
func (c *pgCluster) command(ctx context.Context, program string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, filepath.Join(c.binDir, program), args...)
	cmd.Dir = c.dir
	if c.account != nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: c.account}
	}
	return cmd
}

// unprivilegedAccount is nil unless this process is root; then the `postgres` account the Debian
// package creates for its own clusters, else `nobody`.
func unprivilegedAccount() (*syscall.Credential, error) {
	if os.Geteuid() != 0 {
		return nil, nil
	}
	for _, name := range []string{"postgres", "nobody"} {
		account, err := user.Lookup(name)
		if err != nil {
			continue
		}
		uid, _ := strconv.ParseUint(account.Uid, 10, 32)
		gid, _ := strconv.ParseUint(account.Gid, 10, 32)
		return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}, nil
	}
	return nil, errors.New("running as root, and neither a postgres nor a nobody account exists to run PostgreSQL as")
}

// runPostgresSchema creates Temporal's databases and migrates each to the newest schema the
// server module embeds, as `temporal-sql-tool` does.
func runPostgresSchema(args []string) error {
	fs := flag.NewFlagSet("postgres-schema", flag.ContinueOnError)
	address := fs.String("address", "", "host:port of the PostgreSQL cluster")
	if err := fs.Parse(args); err != nil {
		return err
	}
	host, port, err := net.SplitHostPort(*address)
	if err != nil {
		return fmt.Errorf("--address %q: %w", *address, err)
	}
	for _, db := range postgresDatabases {
		// Commits that do not wait for the disk: the schema is rebuilt from scratch if the machine crashes now.
		connect := []string{"temporal-sql-tool", "--plugin", postgresql.PluginName, "--ep", host, "-p", port, "-u", postgresUser, "--db", db.name, "--ca", "synchronous_commit=off"}
		for _, step := range [][]string{
			{"create-database", "--defaultdb", "postgres"},
			{"setup-schema", "-v", "0.0"},
			{"update-schema", "--schema-name", db.schema},
		} {
			if err := sqltool.RunTool(append(append([]string{}, connect...), step...)); err != nil {
				return fmt.Errorf("%s %s: %w", db.name, step[0], err)
			}
		}
	}
	return nil
}
