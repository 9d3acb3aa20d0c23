/**
 * What tells the releases apart. Every release runs the same workflow code; the broken controls
 * are not switches here but changes of the kernel's source (binaries/control-patches.ts), so that the
 * kernel reads as the spec.
 */

export interface KernelOptions {
  /**
   * How the `context-compaction` gate answers: `patched` (the current binary: open for new
   * runs, closed while replaying a history written without it), `never` (v0).
   */
  gate: 'patched' | 'never';
  /**
   * Whether to continue as new also when the history calls for it (the server suggests it, or
   * its length or size passes the kernel's bounds): `never` (v0, v1), `patched` (v2: behind the
   * `continue-as-new-suggested` gate).
   */
  continuesAsNewOnHistory: 'never' | 'patched';
  /**
   * Who keeps the conversation under the trigger: the kernel, with its state card (`card`,
   * behind the gate), or the provider (`provider`: every request asks the Responses API to
   * compact past the trigger in tokens, and the conversation keeps only what follows the
   * compaction item it answers with; provider-compaction).
   */
  contextManagement: 'card' | 'provider';
}

export const CURRENT_KERNEL: KernelOptions = {
  gate: 'patched',
  continuesAsNewOnHistory: 'never',
  contextManagement: 'card',
};
