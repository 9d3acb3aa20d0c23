/** The commented starting point of `longrun scenario new`: every section, each explained, valid as it stands. */
export function scenarioTemplate(name: string, schemaRef: string): string {
  return `# yaml-language-server: $schema=${schemaRef}
#
# ${name}: say here what this scenario shows and how long it takes.
# Run it with \`longrun run ${name}\`; check it with \`longrun scenario validate\`.
# Sizes are bytes; durations are 500ms, 90s, 10m, 1h or a number of milliseconds.

name: ${name}
description: What this scenario shows, in one sentence.
# Same seed, same bytes: every run's content, size and faults follow from it.
seed: 1

# Kernel binaries to run on (every run is made on each): v0, v1, or a broken control.
# For a worker longrun did not write (any language): target: { external: { binaries: { my-v1: { worker: { argv: [./my-worker] }, replay: { argv: [./my-worker, replay] } } } } }
# (docs/your-worker.md; scenarios/go-smoke.yaml is a complete one).
target:
  binaries: [v1]

# Dynamic config of the embedded Temporal server, over production's
# (limit.blobSize.error 2 MiB, limit.historySize.error 500 MiB).
server:
  dynamicConfig: {}
  # dynamicConfig:
  #   limit.blobSize.error: 262144

# The kernel's thresholds (spec defaults: blobLimitBytes 2097152, compactionTriggerBytes 1200000,
# continueAsNewBytes 134217728, cardMaxBytes 8192, tailMaxBytes 262144); scale them down
# together with the server's limits to reproduce in seconds what takes production days.
limits: {}

runs:
  count: 2 # runs per binary
  concurrency: 2 # at once
  maxTurns: 200
  timeout: 2m # a run still open after this is stopped and reported
  # duration: 10m # soak: keep starting runs for this long
  # arrivalRate: 0.5 # open model: runs started per second, instead of concurrency

# The synthetic runs (mocks/synthetic/run-shape.ts). By default sizes follow production
# (p50 56k, p90 151k, max 730k tokens); \`scale\` shrinks every generated size.
shape:
  scale: 0.05
  # overrides: # fixed numbers for incident reproductions, before scale
  #   turns: 40
  #   bytesPerTurn: 8192
  #   screenshotEvery: 5
  #   screenshotBytes: 200000
  #   screenshotPageTextBytes: 20000 # the page's text beside each screenshot, as a browser tool reads it
  #   callsPerTurn: 20
  #   narrationBytes: 4000 # each tool turn's assistant text, in UTF-8 bytes

# Faults the mocks inject (mocks/faults/fault-profile.ts), per target: agent, compaction, sandbox.
faults: {}
# faults:
#   compaction:
#     - fault: { kind: http-500 }
#       when: { probability: 0.5 }

# How far each figure may get worse than the baseline's in \`longrun compare\`, over its
# default (\`longrun compare --help\`): a percentage, an amount in the figure's unit, or off.
# compare:
#   maxRegression: { p99: 25%, tokens-per-turn: 10% }

# Steps during the scenario: kill-worker, restart-server, restart-database, upgrade-worker (with \`to\`),
# each \`after\` a duration or \`atTurn\` a turn.
chaos: []

# What must be true: \`hold\` (all, or a list of invariant ids), \`reproduces\` (tmprl1103,
# history-size, history-count), \`violates\` (a broken control is caught), \`ends\` (how every run
# ends: completed, where no fault may end a run) or \`replay\` (\`on\`: binaries its histories must
# replay on; \`failsOn\`: those they must fail on), each on one binary.
expect:
  - on: v1
    hold: all
  - on: v1
    ends: completed
`;
}
