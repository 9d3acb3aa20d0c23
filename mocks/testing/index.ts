export {
  type DrivenRun,
  type DriveRunOptions,
  driveRun,
  type Exchange,
} from './drive-run.ts';
