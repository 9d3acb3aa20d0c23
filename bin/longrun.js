#!/usr/bin/env node
import { runEntry } from './run-entry.js';

await runEntry('src/cli/main');
