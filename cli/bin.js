#!/usr/bin/env node
// The `dogu` command. The CLI is TypeScript; tsx loads it without a build step.
import { register } from 'tsx/esm/api';

register();
await import('./main.ts');
