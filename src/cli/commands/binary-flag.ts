/** `--binary B`, shared by the commands that run one kernel binary's workflow code. */
import { BINARY_IDS, type BinaryId, CURRENT_BINARY, isBinaryId } from '../../kernel/index.ts';
import { valueFlag } from '../flags.ts';

export function binaryFlag(help: string) {
  return valueFlag<BinaryId>({
    value: 'B',
    help: `${help}: one of ${BINARY_IDS.join(', ')}`,
    default: CURRENT_BINARY,
    parse: (raw) => (isBinaryId(raw) ? raw : undefined),
    want: `one of ${BINARY_IDS.join(', ')}`,
  });
}
