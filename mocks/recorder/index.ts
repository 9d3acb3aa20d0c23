export {
  type MockRecord,
  MockRecorder,
  type MockTarget,
} from './mock-recorder.ts';
