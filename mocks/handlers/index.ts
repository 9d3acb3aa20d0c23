export { usageFor } from './chat-answer.ts';
export {
  extractIdentifiers,
  type Identifier,
  writeCard,
} from './compaction-card.ts';
export {
  createModelHandlers,
  DEFAULT_MODEL_BASE_URL,
  type ModelHandlerOptions,
} from './model-handlers.ts';
export { type RequestRoute, runOfRequest } from './request-run.ts';
export {
  createSandboxHandlers,
  DEFAULT_SANDBOX_BASE_URL,
  type SandboxHandlerOptions,
} from './sandbox-handlers.ts';
export { checkToolMap, isSandboxTool, type SandboxToolName, type ToolMap } from './tool-map.ts';
export type { ModelRequest, OfferedTool, Reply, WireFormat, WireFormatName } from './wire-format.ts';
export { ANTHROPIC_MESSAGES, badGatewayAt, CHAT_COMPLETIONS, RESPONSES, tooLargeAt, WIRE_FORMATS } from './wire-formats.ts';
