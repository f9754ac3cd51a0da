/** `npm run api-types`: regenerates web/src/api/openapi.gen.ts from the OpenAPI document. */
import { writeFile } from 'node:fs/promises';
import { apiTypesFile, apiTypesSource } from './api-types.ts';

await writeFile(apiTypesFile, await apiTypesSource());
process.stdout.write(`Wrote ${apiTypesFile.pathname}\n`);
