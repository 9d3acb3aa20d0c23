export {
  DEFAULT_MAX_BODY_BYTES,
  type MockServer,
  type MockServerOptions,
  RECORDS_PATH,
  startMockServer,
} from './http-server.ts';
export { type InProcessMocks, startInProcessMocks } from './in-process.ts';
export { checkPeers, type Peers, peerUrl, runOwner } from './run-owner.ts';
