/**
 * An agent's own tools whose backends reach longrun's sandbox (LONGRUN_SANDBOX_URL): the model
 * plays a planned call to the mapped sandbox tool as a call to the agent's tool, with the
 * planned arguments as they are, and the sandbox answers from them.
 */
import { TOOL_NAMES, type ToolName } from '../../src/contract/messages.ts';
import { TOOL_NAME } from './wire-format.ts';

export type SandboxToolName = ToolName;

/** The agent's tool name -> the sandbox tool it forwards to, e.g. `{ get_page: 'screenshot' }`. */
export type ToolMap = Readonly<Record<string, SandboxToolName>>;

export function isSandboxTool(name: string): name is SandboxToolName {
  return (TOOL_NAMES as readonly string[]).includes(name);
}

/** Checks a tool map; throws one line naming the entry. */
export function checkToolMap(map: Record<string, unknown>): ToolMap {
  for (const [name, tool] of Object.entries(map)) {
    if (!TOOL_NAME.test(name)) throw new Error(`toolMap.${name}: a tool's name is 1 to 64 letters, digits, _ or -`);
    if (isSandboxTool(name)) throw new Error(`toolMap.${name}: the sandbox's own tool needs no mapping`);
    if (typeof tool !== 'string' || !isSandboxTool(tool)) {
      throw new Error(`toolMap.${name}: ${JSON.stringify(tool)} is no sandbox tool (${TOOL_NAMES.join(', ')})`);
    }
  }
  return map as ToolMap;
}
