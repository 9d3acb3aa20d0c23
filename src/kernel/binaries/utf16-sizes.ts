/**
 * Broken control: the kernel's sizes are string.length, UTF-16 code units, not UTF-8 bytes.
 * ASCII runs cannot tell; Cyrillic (2 bytes a unit), CJK (3) and emoji (4 per pair) weigh more
 * than the trigger, the budget, the guard and the rebuild count.
 */
import { createAgentRun } from '../workflows/agent-run.ts';
import { CURRENT_KERNEL } from '../workflows/kernel-options.ts';

export const agentRun = createAgentRun({
  ...CURRENT_KERNEL,
  sizeUnit: 'utf16-units',
});
