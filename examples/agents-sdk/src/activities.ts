/**
 * The tools' I/O: one activity that calls longrun's sandbox over HTTP (LONGRUN_SANDBOX_URL).
 * A non-2xx answer throws, so Temporal retries it as it would a flaky real sandbox.
 */
import type { RunToolInput, RunToolResult } from './contract.ts';

export async function run_tool(input: RunToolInput): Promise<RunToolResult> {
  const base = process.env.LONGRUN_SANDBOX_URL;
  if (!base) throw new Error('LONGRUN_SANDBOX_URL is not set');
  const response = await fetch(`${base.replace(/\/$/, '')}/tools/${input.call.function.name}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(input),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`sandbox ${input.call.function.name}: ${response.status} ${text.slice(0, 200)}`);
  return JSON.parse(text) as RunToolResult;
}
