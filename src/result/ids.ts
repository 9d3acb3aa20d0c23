/** The names a result carries, as schemas: a binary (ours or a foreign one), an invariant, an incident. */
import { z } from 'zod';
import { INCIDENTS } from '../checks/incidents.ts';
import { INVARIANT_IDS } from '../checks/verdict.ts';

export { binaryIdSchema, binaryNameSchema } from '../kernel/binaries/index.ts';
export const invariantIdSchema = z.enum(INVARIANT_IDS);
export const incidentSchema = z.enum(INCIDENTS);
