#!/usr/bin/env node
// npm's postinstall and `npm run build:server`: the embedded Temporal server, built once per
// version of its Go sources (tools/temporal-server/build.ts).
import { runEntry } from './run-entry.js';

await runEntry('tools/temporal-server/build');
