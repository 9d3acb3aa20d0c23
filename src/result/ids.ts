/** The names a result carries, as schemas: a kernel binary, an invariant, an incident. */
import { z } from 'zod';
import { INCIDENTS } from '../checks/incidents.ts';
import { HISTORY_INVARIANT_IDS } from '../checks/verdict.ts';
import { BINARY_IDS } from '../kernel/binaries/index.ts';

export const binaryIdSchema = z.enum(BINARY_IDS);
export const invariantIdSchema = z.enum([...HISTORY_INVARIANT_IDS, 'replay.cross-version']);
export const incidentSchema = z.enum(INCIDENTS);
