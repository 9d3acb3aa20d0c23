/** The names a result carries, as schemas: a binary (ours or a foreign one), an invariant, an incident. */
import { z } from 'zod';
import { INCIDENTS } from '../checks/incidents.ts';
import { HISTORY_INVARIANT_IDS } from '../checks/verdict.ts';

export { binaryIdSchema, binaryNameSchema } from '../kernel/binaries/index.ts';
export const invariantIdSchema = z.enum([...HISTORY_INVARIANT_IDS, 'replay.cross-version']);
export const incidentSchema = z.enum(INCIDENTS);
