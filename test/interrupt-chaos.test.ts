/**
 * Ctrl-C to longrun's whole process group (as a terminal sends it) in the middle of
 * `chaos-database-network`, whose server reaches its PostgreSQL only through Toxiproxy: the
 * stop still needs that path to end the runs and read their histories. longrun stops the runs,
 * writes the partial report, exits 130 and leaves nothing running (killing Toxiproxy with the
 * rest took the server's database away: a minute of failing calls, an internal error, no report).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { alive, descendants } from './processes.ts';

describe('Ctrl-C during chaos-database-network', () => {
  it('keeps the database path until the server is down: the partial report in seconds, exit 130, nothing left', async () => {
    const reports = mkdtempSync(join(tmpdir(), 'longrun-interrupt-chaos-'));
    const bin = fileURLToPath(new URL('../bin/longrun.js', import.meta.url));
    const child = spawn(process.execPath, [bin, 'run', 'chaos-database-network', '--report-dir', reports], {
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stdout.resume();
    const inFlight = new Promise<void>((resolve) =>
      child.stderr.on('data', (d: Buffer) => {
        stderr += d;
        if (/runs \d+\/\d+ .* [1-9]\d* turns/.test(stderr)) resolve();
      }),
    );
    const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
    await inFlight;
    const started = descendants(child.pid as number);
    expect(started.length).toBeGreaterThan(2);
    process.kill(-(child.pid as number), 'SIGINT');
    const code = await closed;
    expect(code, stderr).toBe(130);
    // Not a server that lost its database: no call failing after a minute, no crash.
    expect(stderr).not.toMatch(/internal error|Failed to describe workflow/);
    const folder = readdirSync(reports)[0] as string;
    const summary = JSON.parse(readFileSync(join(reports, folder, 'summary.json'), 'utf8'));
    expect(summary.partial).toBe(true);
    expect(readFileSync(join(reports, folder, 'junit.xml'), 'utf8')).toContain('type="partial"');
    expect(started.filter(alive)).toEqual([]);
  }, 240_000);
});
