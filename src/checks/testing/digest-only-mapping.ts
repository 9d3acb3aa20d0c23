import { DEFAULT_KERNEL_MAPPING, type KernelMapping } from '../mapping.ts';

/** Our kernel as if it sent compaction only a digest: the compact_context input holds no dialog to read. */
export const DIGEST_ONLY_MAPPING: KernelMapping = {
  ...DEFAULT_KERNEL_MAPPING,
  paths: { ...DEFAULT_KERNEL_MAPPING.paths, compactMessages: null },
};
