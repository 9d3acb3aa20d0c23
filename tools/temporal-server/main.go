// Command temporal-server embeds the real Temporal server on SQLite (or on a PostgreSQL cluster
// that its `postgres` subcommand starts, postgres.go) and accepts the
// `temporal server start-dev` flags that @temporalio/testing passes, so that the SDK's
// `existing-path` executable can point at it on machines that cannot download the CLI.
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"os/signal"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"go.temporal.io/server/common/authorization"
	"go.temporal.io/server/common/cluster"
	"go.temporal.io/server/common/config"
	"go.temporal.io/server/common/dynamicconfig"
	"go.temporal.io/server/common/log"
	"go.temporal.io/server/common/membership/static"
	"go.temporal.io/server/common/persistence/sql/sqlplugin/postgresql"
	sqliteplugin "go.temporal.io/server/common/persistence/sql/sqlplugin/sqlite"
	"go.temporal.io/server/common/primitives"
	sqliteschema "go.temporal.io/server/schema/sqlite"
	"go.temporal.io/server/temporal"
)

// serverVersion is the embedded go.temporal.io/server release; keep it in step with go.mod.
const serverVersion = "1.32.1"

const clusterName = "active"

type repeated []string

func (r *repeated) String() string     { return strings.Join(*r, ",") }
func (r *repeated) Set(v string) error { *r = append(*r, v); return nil }

type options struct {
	ip             string
	port           int
	httpPort       int
	namespaces     repeated
	dbFilename     string
	postgres       string
	logFormat      string
	logLevel       string
	dynamicConfig  repeated
	searchAttrs    repeated
	headless       bool
	uiPort         int
	sqlitePragmas  repeated
	printReadyLine bool
	crashFile      string
	// One service of the cluster in this process (--service), the others' ports for static membership.
	service      string
	servicePorts repeated
}

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintf(os.Stderr, "temporal-server: %v\n", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	if len(args) == 1 && (args[0] == "--version" || args[0] == "-v" || args[0] == "version") {
		fmt.Printf("temporal-server (longrun) server version %s\n", serverVersion)
		return nil
	}
	if len(args) >= 1 && args[0] == "postgres" {
		return runPostgres(args[1:])
	}
	if len(args) >= 1 && args[0] == "postgres-schema" {
		return runPostgresSchema(args[1:])
	}
	if len(args) < 2 || args[0] != "server" || args[1] != "start-dev" {
		return errors.New("usage: temporal-server server start-dev [--ip IP] [--port N] [--http-port N] [--namespace NS] [--db-filename F | --postgres HOST:PORT] [--dynamic-config-value KEY=JSON]... [--crash-file F] [--service NAME --service-port NAME=PORT...]\n       temporal-server postgres --bin-dir DIR")
	}
	opts, err := parseFlags(args[2:])
	if err != nil {
		return err
	}
	return serve(opts)
}

func parseFlags(args []string) (*options, error) {
	o := &options{}
	fs := flag.NewFlagSet("start-dev", flag.ContinueOnError)
	fs.StringVar(&o.ip, "ip", "127.0.0.1", "IP address to bind the frontend to")
	fs.IntVar(&o.port, "port", 7233, "frontend gRPC port")
	fs.IntVar(&o.httpPort, "http-port", 0, "frontend HTTP API port (0: a free port)")
	fs.Var(&o.namespaces, "namespace", "namespace to create (repeatable; 'default' is always created)")
	fs.Var(&o.namespaces, "n", "alias of --namespace")
	fs.StringVar(&o.dbFilename, "db-filename", "", "SQLite file to persist to (default: in memory)")
	fs.StringVar(&o.postgres, "postgres", "", "host:port of a PostgreSQL cluster set up by `temporal-server postgres` (instead of SQLite)")
	fs.StringVar(&o.logFormat, "log-format", "json", "json or pretty")
	fs.StringVar(&o.logLevel, "log-level", "warn", "debug, info, warn, error or never")
	fs.Var(&o.dynamicConfig, "dynamic-config-value", "KEY=JSON dynamic config value (repeatable)")
	fs.Var(&o.searchAttrs, "search-attribute", "accepted for compatibility and ignored")
	fs.Var(&o.sqlitePragmas, "sqlite-pragma", "KEY=VALUE SQLite pragma (repeatable)")
	fs.BoolVar(&o.headless, "headless", false, "accepted for compatibility: this server has no UI")
	fs.IntVar(&o.uiPort, "ui-port", 0, "accepted for compatibility and ignored")
	fs.StringVar(&o.crashFile, "crash-file", "", "append why the server died (a panic, a fatal log line) to this file, whatever --log-level says")
	fs.BoolVar(&o.printReadyLine, "print-ready", false, "print 'ready' to stdout once the frontend accepts connections")
	fs.StringVar(&o.service, "service", "", "run only this service (frontend, history, matching or worker): one process of a multi-process cluster")
	fs.Var(&o.servicePorts, "service-port", "NAME=PORT gRPC port of history, matching and worker (repeatable; with --service, all three)")
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if o.postgres != "" && o.dbFilename != "" {
		return nil, errors.New("--postgres and --db-filename: choose one")
	}
	if o.service != "" {
		if !slices.Contains(serviceNames, o.service) {
			return nil, fmt.Errorf("--service %q: want one of %s", o.service, strings.Join(serviceNames, ", "))
		}
		if o.postgres == "" {
			return nil, errors.New("--service: the services share a store, --postgres is required")
		}
		for _, name := range serviceNames[1:] {
			if _, err := o.servicePort(name); err != nil {
				return nil, err
			}
		}
	}
	if net.ParseIP(o.ip) == nil && o.ip != "localhost" {
		return nil, fmt.Errorf("--ip %q is not an IP address", o.ip)
	}
	return o, nil
}

// serve runs the server until it is told to stop; an error that ends it is also written to the
// crash file, beside what the runtime and the fatal log lines write there.
func serve(o *options) error {
	err := serveUntilStopped(o)
	if err != nil && o.crashFile != "" {
		if f, openErr := os.OpenFile(o.crashFile, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644); openErr == nil {
			fmt.Fprintf(f, "%v\n", err)
			f.Close()
		}
	}
	return err
}

func serveUntilStopped(o *options) error {
	dynConf, err := dynamicConfig(o.dynamicConfig)
	if err != nil {
		return err
	}
	if o.httpPort == 0 {
		if o.httpPort, err = freePort(o.ip); err != nil {
			return err
		}
	}
	conf, err := serverConfig(o)
	if err != nil {
		return err
	}
	if err := recordCrashesIn(o.crashFile); err != nil {
		return err
	}
	logger, err := buildLogger(o.logFormat, o.logLevel, o.crashFile)
	if err != nil {
		return err
	}
	hosts := map[primitives.ServiceName]static.Hosts{}
	for name, svc := range conf.Services {
		hosts[primitives.ServiceName(name)] = static.SingleLocalHost(net.JoinHostPort(o.ip, strconv.Itoa(svc.RPC.GRPCPort)))
	}
	services := temporal.DefaultServices
	if o.service != "" {
		services = []string{o.service}
	}
	server, err := temporal.NewServer(
		temporal.WithConfig(conf),
		temporal.ForServices(services),
		temporal.WithStaticHosts(hosts),
		temporal.WithLogger(logger),
		temporal.WithAuthorizer(authorization.NewNoopAuthorizer()),
		temporal.WithClaimMapper(func(*config.Config) authorization.ClaimMapper { return authorization.NewNoopClaimMapper() }),
		temporal.WithDynamicConfigClient(dynConf),
	)
	if err != nil {
		return fmt.Errorf("building server: %w", err)
	}
	// A terminal's Ctrl-C goes to its whole foreground process group. In a group of its own, the
	// server stays up while longrun judges the runs it stopped and writes the partial report;
	// longrun's teardown, or its death (exitWithParent), still stops it.
	_ = syscall.Setpgid(0, 0)
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGINT, syscall.SIGTERM)
	go exitWithParent(stop)
	if err := server.Start(); err != nil {
		return fmt.Errorf("starting server: %w", err)
	}
	if o.printReadyLine {
		fmt.Printf("ready grpc=%s http=%s\n", net.JoinHostPort(o.ip, strconv.Itoa(o.port)), net.JoinHostPort(o.ip, strconv.Itoa(o.httpPort)))
	}
	<-stop
	done := make(chan struct{})
	go func() { server.Stop(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		return errors.New("server did not stop within 10s")
	}
	return nil
}

// exitWithParent stops the server when the process that started it dies without stopping it
// (a SIGKILLed test runner), so no server outlives its harness.
func exitWithParent(stop chan<- os.Signal) {
	parent := os.Getppid()
	for range time.Tick(time.Second) {
		if os.Getppid() != parent {
			stop <- syscall.SIGTERM
			return
		}
	}
}

func dynamicConfig(values []string) (dynamicconfig.StaticClient, error) {
	client := dynamicconfig.StaticClient{}
	for _, kv := range values {
		key, raw, ok := strings.Cut(kv, "=")
		if !ok || key == "" {
			return nil, fmt.Errorf("--dynamic-config-value %q: want KEY=JSON", kv)
		}
		var value any
		if err := json.Unmarshal([]byte(raw), &value); err != nil {
			return nil, fmt.Errorf("--dynamic-config-value %s: value %q is not JSON: %v", key, raw, err)
		}
		// JSON numbers decode as float64; the server's int settings want integers.
		if f, isFloat := value.(float64); isFloat && f == float64(int64(f)) {
			value = int(f)
		}
		client[dynamicconfig.MakeKey(key)] = value
	}
	return client, nil
}

func serverConfig(o *options) (*config.Config, error) {
	conf := &config.Config{}
	conf.Global.Membership.MaxJoinDuration = 30 * time.Second
	conf.Global.Membership.BroadcastAddress = o.ip

	conf.Persistence.NumHistoryShards = 1
	var err error
	if o.postgres != "" {
		stores, err := postgresStores(o)
		if err != nil {
			return nil, err
		}
		conf.Persistence.DefaultStore = "temporal"
		conf.Persistence.VisibilityStore = "temporal_visibility"
		conf.Persistence.DataStores = stores
	} else {
		sqlConf, err := sqlConfig(o)
		if err != nil {
			return nil, err
		}
		conf.Persistence.DefaultStore = "sqlite"
		conf.Persistence.VisibilityStore = "sqlite"
		conf.Persistence.DataStores = map[string]config.DataStore{"sqlite": {SQL: sqlConf}}
	}

	frontend := net.JoinHostPort(o.ip, strconv.Itoa(o.port))
	conf.ClusterMetadata = &cluster.Config{
		FailoverVersionIncrement: 10,
		MasterClusterName:        clusterName,
		CurrentClusterName:       clusterName,
		ClusterInformation: map[string]cluster.ClusterInformation{
			clusterName: {
				Enabled:                true,
				InitialFailoverVersion: 1,
				RPCAddress:             frontend,
				HTTPAddress:            net.JoinHostPort(o.ip, strconv.Itoa(o.httpPort)),
				ClusterID:              randomUUID(),
			},
		},
	}
	conf.DCRedirectionPolicy.Policy = "noop"
	conf.Services = map[string]config.Service{}
	for _, name := range serviceNames {
		svc := config.Service{}
		svc.RPC.BindOnIP = o.ip
		if name == "frontend" {
			svc.RPC.GRPCPort = o.port
			svc.RPC.HTTPPort = o.httpPort
		} else if svc.RPC.GRPCPort, err = o.servicePort(name); err != nil {
			return nil, err
		}
		conf.Services[name] = svc
	}
	conf.Archival.History.State = "disabled"
	conf.Archival.Visibility.State = "disabled"
	conf.NamespaceDefaults.Archival.History.State = "disabled"
	conf.NamespaceDefaults.Archival.Visibility.State = "disabled"
	conf.PublicClient.HostPort = frontend
	return conf, nil
}

var serviceNames = []string{"frontend", "history", "matching", "worker"}

// servicePort is a service's port from --service-port; without --service, a free one.
func (o *options) servicePort(name string) (int, error) {
	for _, kv := range o.servicePorts {
		if key, value, _ := strings.Cut(kv, "="); key == name {
			port, err := strconv.Atoi(value)
			if err != nil || port <= 0 || port > 65535 {
				return 0, fmt.Errorf("--service-port %q: want %s=PORT", kv, name)
			}
			return port, nil
		}
	}
	if o.service != "" {
		return 0, fmt.Errorf("--service %s: --service-port %s=PORT is missing", o.service, name)
	}
	return freePort(o.ip)
}

func sqlConfig(o *options) (*config.SQL, error) {
	conf := &config.SQL{PluginName: sqliteplugin.PluginName}
	if o.dbFilename == "" {
		conf.ConnectAttributes = map[string]string{"mode": "memory", "cache": "shared"}
		conf.DatabaseName = fmt.Sprintf("longrun-%d", rand.Int64())
	} else {
		// A throwaway file: a write-ahead log without fsync survives a crash of the server (the
		// chaos steps), not of the machine, and appends each commit to the log instead of copying
		// every page it changes to a rollback journal and syncing both (SQLite's default).
		conf.ConnectAttributes = map[string]string{"mode": "rwc", "journal_mode": "wal", "synchronous": "off"}
		conf.DatabaseName = o.dbFilename
	}
	for _, kv := range o.sqlitePragmas {
		key, value, ok := strings.Cut(kv, "=")
		if !ok {
			return nil, fmt.Errorf("--sqlite-pragma %q: want KEY=VALUE", kv)
		}
		conf.ConnectAttributes[key] = value
	}
	if o.dbFilename != "" {
		if _, err := os.Stat(o.dbFilename); errors.Is(err, os.ErrNotExist) {
			if err := sqliteschema.SetupSchema(conf); err != nil {
				return nil, fmt.Errorf("--db-filename %s: setting up schema: %w", o.dbFilename, err)
			}
		}
	}
	if err := createNamespaces(conf, o.namespaces); err != nil {
		return nil, err
	}
	return conf, nil
}

// postgresStores are Temporal's two PostgreSQL databases, made by `temporal-server postgres`;
// the namespaces go in as on SQLite, before the server starts.
func postgresStores(o *options) (map[string]config.DataStore, error) {
	stores := map[string]config.DataStore{}
	for _, db := range postgresDatabases {
		stores[db.name] = config.DataStore{SQL: &config.SQL{
			PluginName:      postgresql.PluginName,
			ConnectAddr:     o.postgres,
			ConnectProtocol: "tcp",
			User:            postgresUser,
			DatabaseName:    db.name,
			MaxConns:        20,
			MaxIdleConns:    20,
		}}
	}
	// In a multi-process cluster the frontend, started first, registers them: one writer, no race.
	if o.service == "" || o.service == "frontend" {
		if err := createNamespaces(stores["temporal"].SQL, o.namespaces); err != nil {
			return nil, err
		}
	}
	return stores, nil
}

// createNamespaces registers 'default' and the requested namespaces in the store directly:
// through the API, a new namespace waits for the server's namespace cache to refresh.
func createNamespaces(conf *config.SQL, requested []string) error {
	names := map[string]bool{"default": true}
	for _, ns := range requested {
		names[ns] = true
	}
	var namespaces []*sqliteschema.NamespaceConfig
	for ns := range names {
		nsConf, err := sqliteschema.NewNamespaceConfig(clusterName, ns, false, nil)
		if err != nil {
			return fmt.Errorf("namespace %s: %w", ns, err)
		}
		namespaces = append(namespaces, nsConf)
	}
	// Despite the package's name, this writes through the generic SQL store: any plugin.
	if err := sqliteschema.CreateNamespaces(conf, namespaces...); err != nil {
		return fmt.Errorf("creating namespaces: %w", err)
	}
	return nil
}

// recordCrashesIn sends the runtime's crash output (an unrecovered panic, a fatal error) to
// path as well as to stderr, so that whoever started the server can say why it died even when
// its stderr went nowhere.
func recordCrashesIn(path string) error {
	if path == "" {
		return nil
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return fmt.Errorf("--crash-file: %w", err)
	}
	defer f.Close() // SetCrashOutput keeps its own descriptor
	if err := debug.SetCrashOutput(f, debug.CrashOptions{}); err != nil {
		return fmt.Errorf("--crash-file: %w", err)
	}
	return nil
}

// buildLogger is the server's logger. At level never with a crash file, the fatal lines (a
// listener that cannot bind, a start that timed out) still go to that file: the server exits
// on them, and they are the only word of why.
func buildLogger(format, level, crashFile string) (log.Logger, error) {
	switch format {
	case "pretty", "console":
		format = "console"
	case "json":
	default:
		return nil, fmt.Errorf("--log-format %q: want json or pretty", format)
	}
	if level == "never" {
		if crashFile == "" {
			return log.NewNoopLogger(), nil
		}
		return log.NewZapLogger(log.BuildZapLogger(log.Config{Level: "fatal", Format: format, OutputFile: crashFile})), nil
	}
	switch level {
	case "debug", "info", "warn", "error", "fatal":
	default:
		return nil, fmt.Errorf("--log-level %q: want debug, info, warn, error or never", level)
	}
	return log.NewZapLogger(log.BuildZapLogger(log.Config{Level: level, Format: format})), nil
}

func randomUUID() string {
	b := make([]byte, 16)
	for i := range b {
		b[i] = byte(rand.IntN(256))
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

func freePort(ip string) (int, error) {
	l, err := net.Listen("tcp", net.JoinHostPort(ip, "0"))
	if err != nil {
		return 0, fmt.Errorf("finding a free port on %s: %w", ip, err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}
