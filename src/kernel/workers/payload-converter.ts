/**
 * The payload converter of every workflow bundle (the kernel's binaries and the benchmark's
 * baseline alike, so that the two stay comparable): the SDK's default (undefined, binary, JSON)
 * with JSON's UTF-8 through the native TextEncoder and TextDecoder, which the sandbox provides,
 * instead of the SDK's JavaScript codec (14% of a max-size replay's CPU). The bytes are the
 * SDK's for every value: JSON.stringify escapes lone surrogates, so both encoders only ever see
 * well-formed text, and histories written with either replay with the other.
 */
import {
  BinaryPayloadConverter,
  CompositePayloadConverter,
  encodingKeys,
  encodingTypes,
  METADATA_ENCODING_KEY,
  type Payload,
  type PayloadConverterWithEncoding,
  UndefinedPayloadConverter,
  ValueError,
} from '@temporalio/common';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

class NativeJsonPayloadConverter implements PayloadConverterWithEncoding {
  readonly encodingType = encodingTypes.METADATA_ENCODING_JSON;

  toPayload(value: unknown): Payload | undefined {
    if (value === undefined) return undefined;
    let json: string;
    try {
      json = JSON.stringify(value);
    } catch {
      return undefined;
    }
    return { metadata: { [METADATA_ENCODING_KEY]: encodingKeys.METADATA_ENCODING_JSON }, data: encoder.encode(json) };
  }

  fromPayload<T>(payload: Payload): T {
    if (payload.data === undefined || payload.data === null) throw new ValueError('Got payload with no data');
    return JSON.parse(decoder.decode(payload.data)) as T;
  }
}

export const payloadConverter = new CompositePayloadConverter(
  new UndefinedPayloadConverter(),
  new BinaryPayloadConverter(),
  new NativeJsonPayloadConverter(),
);
