/**
 * The SDK runtime, installed once per process with quiet logging: a harness that drives
 * PAYLOADS_TOO_LARGE retry loops on purpose would otherwise print every failed task.
 * LONGRUN_LOG_LEVEL (DEBUG, INFO, WARN, ERROR; default WARN) turns it up again. With
 * `prometheusAddress`, the SDK's worker metrics are exported there (GET /metrics).
 */
import { inspect } from 'node:util';
import { DefaultLogger, type LogEntry, type LogLevel, Runtime } from '@temporalio/worker';

const LEVELS = ['TRACE', 'DEBUG', 'INFO', 'WARN', 'ERROR'] as const;
let installed: { prometheusAddress?: string | undefined } | undefined;

export interface RuntimeOptions {
  /** host:port for the SDK's Prometheus exporter; only on the first install of a process. */
  prometheusAddress?: string;
}

export function installRuntime(options: RuntimeOptions = {}): void {
  if (installed) {
    if (options.prometheusAddress && installed.prometheusAddress !== options.prometheusAddress) {
      throw new Error('the SDK runtime is already installed in this process: its metrics can only be asked for before it starts');
    }
    return;
  }
  installed = { prometheusAddress: options.prometheusAddress };
  const requested = (process.env.LONGRUN_LOG_LEVEL ?? 'WARN').toUpperCase();
  const level: LogLevel = (LEVELS as readonly string[]).includes(requested) ? (requested as LogLevel) : 'WARN';
  // Core's own payload-limit and task-failure lines repeat on every retry: the histories say it once.
  const coreFilter =
    `${level === 'TRACE' || level === 'DEBUG' ? level : 'ERROR'},temporalio_common::payload_limits=off,temporalio_sdk_core::worker::workflow=off`.toLowerCase();
  try {
    Runtime.install({
      logger: new DefaultLogger(level, writeLog),
      telemetryOptions: {
        logging: { filter: coreFilter, forward: {} },
        ...(options.prometheusAddress
          ? {
              metrics: {
                prometheus: {
                  bindAddress: options.prometheusAddress,
                  countersTotalSuffix: true,
                  unitSuffix: true,
                  useSecondsForDurations: true,
                },
              },
            }
          : {}),
      },
      // longrun handles SIGINT/SIGTERM itself (stop the runs, write a partial report); the SDK's
      // default would shut every worker down underneath it, a replay in flight included.
      shutdownSignals: [],
    });
  } catch {
    // Already instantiated by an earlier Worker or connection in this process: keep that one.
  }
}

/**
 * Both end on stderr. Below ERROR through `console`, so that a test runner knows which test
 * logged it: vitest.config.ts shows them (the "Activity failed" warnings of every fault a test
 * injects on purpose) only for a test that fails. Errors go straight to stderr, always seen.
 */
function writeLog({ level, message, meta, timestampNanos }: LogEntry): void {
  const line = `${new Date(Number(timestampNanos / 1_000_000n)).toISOString()} [${level}] ${message}`;
  if (level === 'ERROR') process.stderr.write(`${meta === undefined ? line : `${line} ${inspect(meta)}`}\n`);
  else if (meta === undefined) console.error(line);
  else console.error(line, meta);
}
