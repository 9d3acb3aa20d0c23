/**
 * A KernelMapping from JSON (`longrun check --mapping FILE`): a partial mapping laid over our
 * kernel's, field by field (`activities`, `paths` and `limits` key by key), so a kernel that
 * differs in its gate's marker says only that. Bad input throws one line naming the field.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type * as Zod from 'zod';
import { DEFAULT_KERNEL_MAPPING, type KernelMapping } from './mapping.ts';

function mappingSchema({ z }: typeof Zod) {
  const payloadPath = z.strictObject({ arg: z.number().int().min(0), path: z.array(z.string()) });
  const name = z.string().min(1);
  const positive = z.number().int().positive();
  return z.strictObject({
    workflowType: name.optional(),
    activities: z
      .strictObject({
        callModel: name.optional(),
        compactContext: name.nullable().optional(),
        runTool: name.optional(),
        journalAppend: name.optional(),
      })
      .optional(),
    paths: z
      .strictObject({
        runInput: payloadPath.optional(),
        callModelRequest: payloadPath.optional(),
        turn: payloadPath.optional(),
        callModelAnswer: payloadPath.optional(),
        callModelUsage: payloadPath.nullable().optional(),
        compactMessages: payloadPath.nullable().optional(),
        compactCard: payloadPath.optional(),
        toolCallId: payloadPath.optional(),
        toolResult: payloadPath.optional(),
        journalEvents: payloadPath.optional(),
        journalHashes: payloadPath.nullable().optional(),
      })
      .optional(),
    patchId: name.nullable().optional(),
    gateMarker: z.enum(['core_patch', 'Version']).optional(),
    failureTypes: z.array(name).optional(),
    payloadGuardFailureType: name.nullable().optional(),
    invalidInputFailureType: name.nullable().optional(),
    journalFirstSeq: z.number().int().min(0).optional(),
    limits: z
      .strictObject({
        blobLimitBytes: positive.optional(),
        compactionTriggerBytes: positive.optional(),
        continueAsNewBytes: positive.optional(),
        cardMaxBytes: positive.optional(),
        tailMaxBytes: positive.optional(),
      })
      .optional(),
  });
}

/**
 * Built on first use, zod with it (required, not imported): zod's modules take ~0.1 s of CPU to
 * load, and `longrun check` without --mapping needs none of them.
 */
let schema: ReturnType<typeof mappingSchema> | undefined;
function partialMapping(): ReturnType<typeof mappingSchema> {
  schema ??= mappingSchema(createRequire(import.meta.url)('zod'));
  return schema;
}

/** Drops the keys whose value is undefined, so that they leave the default in place. */
function defined<T extends object>(value: T | undefined): Partial<T> {
  return Object.fromEntries(Object.entries(value ?? {}).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** `source` names the input in errors ("go-mapping.json"). */
export function parseKernelMapping(value: unknown, source: string): KernelMapping {
  const parsed = partialMapping().safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const unknownKey = issue?.code === 'unrecognized_keys' ? issue.keys[0] : undefined;
    const field = [...(issue?.path ?? []), ...(unknownKey === undefined ? [] : [unknownKey])].join('.') || '(mapping)';
    const problem = unknownKey === undefined ? issue?.message : 'is not a field of a kernel mapping';
    throw new Error(`${source}: ${field}: ${problem ?? 'not a kernel mapping'}`);
  }
  const { activities, paths, limits, ...rest } = parsed.data;
  const base = DEFAULT_KERNEL_MAPPING;
  return {
    ...base,
    ...defined(rest),
    activities: { ...base.activities, ...defined(activities) },
    paths: { ...base.paths, ...defined(paths) },
    limits: { ...base.limits, ...defined(limits) },
  } as KernelMapping;
}

/** A mapping file (JSON, a partial KernelMapping); throws one line naming the file and what is wrong. */
export function readKernelMappingFile(path: string): KernelMapping {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new Error(`${path}: cannot read it (${(error as NodeJS.ErrnoException).code ?? error})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new Error(`${path}: not JSON (${(error as Error).message})`);
  }
  return parseKernelMapping(json, path);
}
