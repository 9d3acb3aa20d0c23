export {
  anthropicClient,
  createPlayer,
  type FunctionTool,
  openAIClient,
  PLAYER_KINDS,
  type PlayedCall,
  type PlayedRun,
  type PlayedTurn,
  type Player,
  type PlayerKind,
  type PlayerOptions,
  playRun,
  runTool,
} from './client-players.ts';
export {
  type DrivenRun,
  type DriveRunOptions,
  driveRun,
  type Exchange,
} from './drive-run.ts';
export { ANTHROPIC_TOOLS, CHAT_TOOLS, RESPONSES_TOOLS } from './sandbox-tools.ts';
