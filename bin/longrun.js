#!/usr/bin/env node
// longrun is written in TypeScript and runs from source through tsx.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/main.ts');
