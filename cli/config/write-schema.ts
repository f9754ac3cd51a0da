/** `npm run schema`: regenerates docs/dogu-config.schema.json (a test fails while it is out of date). */
import { writeFile } from 'node:fs/promises';
import { configJsonSchemaText } from './json-schema.ts';

const schemaFile = new URL('../../docs/dogu-config.schema.json', import.meta.url);
await writeFile(schemaFile, configJsonSchemaText());
process.stdout.write(`Wrote ${schemaFile.pathname}\n`);
