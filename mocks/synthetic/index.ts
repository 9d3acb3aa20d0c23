export { carriedBytes, carriedText } from './carried-text.ts';
export { conversationMessage, messageEndTurns } from './conversation.ts';
export {
  type AssistantMessage,
  type PlannedCall,
  type PlannedTurn,
  type PlanRunInput,
  planContextBytes,
  planRun,
  RUN_STRATA,
  type RunPlan,
} from './plan-run.ts';
export { curveAt, type QuantileCurve } from './quantile-curve.ts';
export { hash32, Rng } from './random.ts';
export { contextBytes, runMessages } from './run-messages.ts';
export {
  DEFAULT_SHAPE,
  PRODUCTION_TOKENS,
  type RunOverrides,
  type RunShape,
  type RunShapeInput,
  resolveShape,
  runShapeInputSchema,
  TEXT_TOOLS,
  type TextToolName,
} from './run-shape.ts';
export {
  clearScreenshotCache,
  MIN_SCREENSHOT_BYTES,
  screenshotDimensions,
  screenshotPng,
} from './screenshot.ts';
export { TEXT_FORMATS, type TextFormat, textOutput } from './text-output.ts';
export {
  FORMATS_BY_TOOL,
  parseToolArgs,
  type ToolArgs,
  toolContentWireBytes,
  toolOutput,
} from './tool-output.ts';
