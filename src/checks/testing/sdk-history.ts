/**
 * Converts proto3 JSON to the SDK's History objects, as `historyFromJSON` from
 * `@temporalio/common/lib/proto-utils` does. That function fails in this install ("type must be
 * a Type"): npm gave @temporalio/common and @temporalio/proto separate copies of protobufjs, and
 * the root of one is not an instance of the other's Type. Using the protojson of the protobufjs
 * that @temporalio/proto itself loads keeps the two from one copy.
 */
import { createRequire } from 'node:module';
import proto, { type temporal } from '@temporalio/proto';

const requireFromProto = createRequire(createRequire(import.meta.url).resolve('@temporalio/proto'));
const { fromJson } = requireFromProto('protobufjs/ext/protojson') as {
  fromJson(type: unknown, json: unknown, options: { ignoreUnknownFields: boolean }): temporal.api.history.v1.History;
};
const { patchProtobufRoot } = requireFromProto('@temporalio/proto/lib/patch-protobuf-root') as {
  patchProtobufRoot(root: unknown): { lookupType(name: string): unknown };
};
const historyType = patchProtobufRoot(proto).lookupType('temporal.api.history.v1.History');

export function sdkHistoryFromJson(json: unknown): temporal.api.history.v1.History {
  return fromJson(historyType, json, { ignoreUnknownFields: true });
}
