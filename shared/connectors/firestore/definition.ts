/**
 * The document-database kind (spec 2.3, 2.5): Firestore (document mode: `db`, `firestore`) or
 * Datastore (key-entity mode: `datastore`), a service-account key, JavaScript actions.
 */
import * as z from 'zod';
import type { ActionInput } from '../../domain/definitions/action.ts';
import { parseServiceAccountKey } from '../google-auth/service-account-key.ts';

export const firestoreConnectionSchema = z.object({
  mode: z.enum(['document', 'key-entity']).default('document'),
  projectId: z
    .string()
    .regex(/^[a-z][a-z0-9-]{4,28}[a-z0-9]$/, 'a Google Cloud project ID such as my-project-123'),
  /** Default: the project's "(default)" database. */
  databaseId: z
    .string()
    .regex(/^(\(default\)|[a-z][a-z0-9-]{2,62})$/, 'a database ID such as (default) or orders-db')
    .optional(),
  /** Write-only: the whole JSON key file of a service account; stored encrypted, never returned. */
  serviceAccountKey: z
    .string()
    .max(20_000)
    .refine((text) => parseServiceAccountKey(text) !== undefined, {
      message: 'must be the JSON key file of a service account (with client_email and private_key)',
    })
    .optional(),
  /** Another endpoint of the same API (Private Service Connect); default: Google's. */
  apiEndpoint: z
    .string()
    .url()
    .regex(/^https?:\/\//, 'an http(s) URL')
    .optional(),
});
export type FirestoreConnection = z.infer<typeof firestoreConnectionSchema>;

export const documentActionShape = {
  kind: z.literal('document'),
  /** An async function body using db/firestore or datastore; returns the result. */
  code: z.string().min(1).max(100_000),
};

export type DocumentActionInput = ActionInput & { kind: 'document'; code: string };

export const documentActionTexts = (action: DocumentActionInput): [string, string][] => [
  ['#/code', action.code],
];
