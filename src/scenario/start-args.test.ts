import { describe, expect, it } from 'vitest';
import { externalTargetSchema } from './external-target.ts';
import { renderStartArgs, startArgsSchema } from './start-args.ts';

const values = { userRequest: 'Hi [longrun-run:r-1]', systemPrompt: 'Be brief.', runId: 'r-1', maxTurns: 7, runInput: { runId: 'r-1' } };

describe('start args', () => {
  it('puts a lone placeholder in as its value, of any JSON type, and writes placeholders in a longer text as text', () => {
    expect(renderStartArgs(['{{runInput}}', '{{maxTurns}}', 'turns: {{maxTurns}}, run {{runId}}', [null, true, 3]], values)).toEqual([
      { runId: 'r-1' },
      7,
      'turns: 7, run r-1',
      [null, true, 3],
    ]);
  });

  it('defaults to the RunInput alone, and names a placeholder it does not know with its path', () => {
    expect(startArgsSchema.parse(undefined)).toEqual(['{{runInput}}']);
    const issues = startArgsSchema.safeParse([{ q: '{{question}}' }]).error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    expect(issues).toEqual([expect.stringMatching(/^0\.q: \{\{question\}\} is not a placeholder \(\{\{userRequest\}\}, /)]);
  });

  it('refuses a target whose workflow is never given the user request, which ties its model requests to their run', () => {
    const target = (args: unknown[]) => externalTargetSchema.safeParse({ args, binaries: { 'py-v1': { worker: { argv: ['w'] } } } });
    expect(target(['{{userRequest}}']).success).toBe(true);
    expect(target(['{{runId}}']).error?.issues[0]?.message).toMatch(/^names neither \{\{userRequest\}\} nor \{\{runInput\}\}/);
  });
});

describe('target.external.tools', () => {
  const target = (tools: unknown) => externalTargetSchema.safeParse({ tools, binaries: { 'py-v1': { worker: { argv: ['w'] } } } });

  it("maps an agent's tool onto the sandbox tool its backend forwards to, and refuses a sandbox tool or a name no provider takes", () => {
    expect(target({ get_page: 'screenshot' }).success).toBe(true);
    const issue = (tools: unknown) => target(tools).error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`)[0];
    expect(issue({ get_page: 'browser' })).toMatch(/^tools\.get_page: /);
    expect(issue({ shell: 'shell' })).toBe("tools: shell: the sandbox's own tool needs no mapping");
    expect(issue({ 'get page': 'shell' })).toMatch(/^tools: get page: a tool's name is/);
  });
});
