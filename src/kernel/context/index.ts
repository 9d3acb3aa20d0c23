/** The kernel's pure parts: workflow-safe, no I/O, the same answer for the same input. */
export {
  formatCount,
  jsonBytes,
  utf8Bytes,
  utf8Head,
  utf8Tail,
} from './bytes.ts';
export { CARD_FRAME, cardMessage, cardProblem } from './card.ts';
export { buildDigest, DIGEST_DEFAULTS, type DigestOptions } from './digest.ts';
export {
  type ElidableItem,
  type ElidableKind,
  isPlaceholder,
  placeholder,
} from './elision.ts';
export {
  type GuardInput,
  type GuardPolicy,
  type GuardResult,
  guardMessages,
} from './guard.ts';
export { type HistoryInfo, historyCallsForContinueAsNew } from './history-pressure.ts';
export {
  bigItemThresholdBytes,
  DEFAULT_LIMITS,
  envelopeMarginBytes,
  guardTargetBytes,
  resolveLimits,
} from './limits.ts';
export { type Rebuilt, rebuildMessages } from './rebuild.ts';
export {
  type AgentRequestInput,
  buildAgentRequest,
  overheadBytes,
  TOOL_DEFINITIONS,
} from './request.ts';
export { checkRunInput } from './run-input.ts';
export { type SplitHistory, splitTurnGroups } from './turn-groups.ts';
