/** The registry: every data-source kind Dogu knows, one line each (docs/connectors.md). */
import { athena } from './athena/index.ts';
import { bigquery } from './bigquery/index.ts';
import type { ConnectorDefinition } from './connector.ts';
import { firestore } from './firestore/index.ts';
import { gcs } from './gcs/index.ts';
import { googleSheets } from './google-sheets/index.ts';
import { grpc } from './grpc/index.ts';
import { http } from './http/index.ts';
import { javascript } from './javascript/index.ts';
import { mysql } from './mysql/index.ts';
import { postgresql } from './postgresql/index.ts';
import { s3 } from './s3/index.ts';

export const connectors: readonly ConnectorDefinition[] = [
  postgresql,
  mysql,
  http,
  grpc,
  athena,
  bigquery,
  googleSheets,
  s3,
  gcs,
  javascript,
  firestore,
];

export function connectorOf(kind: string): ConnectorDefinition | undefined {
  return connectors.find((c) => c.kind === kind);
}
