/** The console's API types, generated from the OpenAPI document (openapi-typescript). */
import openapiTS from 'openapi-typescript';
import { openApiDocument } from '../openapi.ts';

export const apiTypesFile = new URL('../../../web/src/api/openapi.gen.ts', import.meta.url);

export async function apiTypesSource(): Promise<string> {
  const document = JSON.parse(JSON.stringify(openApiDocument()));
  const types = await openapiTS(document, { exportType: true, alphabetize: true });
  return `/* Generated from the OpenAPI document by \`npm run api-types\`: do not edit (a test fails when out of date). */\n${types}`;
}
