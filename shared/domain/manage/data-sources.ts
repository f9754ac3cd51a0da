/**
 * Data sources: create or replace, read, list, delete, test. Each kind's secret fields (a
 * password, a key) are write-only: encrypted on save as `<field>Ciphertext`, shown as
 * `has<Field>`, never returned; omitting one on update keeps the stored one, '' clears it.
 */
import { createHash } from 'node:crypto';
import { bridgeRouteFor } from '../bridges/bridge-route.ts';
import type { DataSourceInput } from '../definitions/data-source.ts';
import { DoguError, notFound } from '../errors.ts';
import { blobKeyOf, type FileStorage } from '../files/model.ts';
import { dataSourceFiles } from '../files/versions.ts';
import { identityTokenSource, type OwnIdp } from '../identity/own-idp.ts';
import type { DataSource, Principal } from '../model.ts';
import type {
  ActionEngines,
  Catalog,
  Clock,
  ConnectionCheck,
  ConnectionCheckResult,
  OAuthClient,
  Store,
} from '../ports.ts';
import { SecretRedactor } from '../secret-redaction.ts';
import { type SecretValues, secretFieldContext } from '../secret-values.ts';
import { authorize, requireEnvironment } from './access.ts';
import {
  isLostGrant,
  markReconnectNeeded,
  oauthField,
  openOAuthConnection,
  presentOAuthConnection,
} from './oauth-stored.ts';

export interface ManageDeps {
  store: Store;
  secrets: SecretValues;
  clock: Clock;
  engines: ActionEngines;
  /** Uploaded files (protosets) of data sources whose kind keeps them. */
  files?: FileStorage;
  /** Dogu's own IdP: "check the trust" of a federated storage connection uses a real token. */
  idp?: OwnIdp;
  /** Revokes OAuth grants of a deleted data source (decision 0041). */
  oauth?: OAuthClient;
}

type Connection = Record<string, unknown>;
const ciphertextField = (field: string) => `${field}Ciphertext`;
const presenceField = (field: string) => `has${field[0]!.toUpperCase()}${field.slice(1)}`;

/** Every `via` must name a bridge registered in the project's settings (422 naming the field). */
async function requireBridges(store: Store, projectId: string, environments: Record<string, Connection>) {
  const named = Object.entries(environments).filter(([, c]) => typeof c.via === 'string');
  if (named.length === 0) return;
  const known = new Set(((await store.getProject(projectId))?.bridges ?? []).map((b) => b.id));
  const errors = named
    .filter(([, c]) => !known.has(c.via as string))
    .map(([environmentId, c]) => ({
      pointer: `#/environments/${environmentId}/via`,
      detail: `no bridge '${String(c.via)}' is registered in the project's settings`,
    }));
  if (errors.length > 0) {
    throw new DoguError('invalid_definition', `#${errors[0]!.pointer.slice(1)}: ${errors[0]!.detail}.`, {
      errors,
    });
  }
}

export async function putDataSource(
  deps: ManageDeps,
  principal: Principal,
  projectId: string,
  input: DataSourceInput,
): Promise<{ dataSource: DataSource; created: boolean }> {
  await authorize(deps.store, principal, projectId, 'manage_data_sources');
  for (const environmentId of Object.keys(input.environments)) {
    await requireEnvironment(deps.store, projectId, environmentId);
  }
  if (input.authAction && !deps.engines.allowsAuthAction(input.kind)) {
    throw new DoguError('invalid_definition', `A ${input.kind} data source takes no authentication action.`, {
      errors: [
        { pointer: '#/authAction', detail: `${input.kind} data sources take no authentication action` },
      ],
    });
  }
  if (input.authAction) {
    const authAction = await deps.store.getAction(projectId, input.authAction.actionId);
    if (!authAction) {
      throw new DoguError(
        'invalid_definition',
        `The authentication action '${input.authAction.actionId}' does not exist.`,
        {
          errors: [{ pointer: '#/authAction/actionId', detail: `no action '${input.authAction.actionId}'` }],
        },
      );
    }
  }
  await requireBridges(deps.store, projectId, input.environments);
  const previous = await deps.store.getDataSource(projectId, input.id);
  if (previous && previous.kind !== input.kind) {
    throw new DoguError(
      'state_conflict',
      `Data source '${input.id}' is ${previous.kind}; its kind cannot change to ${input.kind}.`,
    );
  }
  const now = deps.clock.now().toISOString();
  const secretFields = deps.engines.secretFields(input.kind);
  // The pinned file version is set on its own (file-pin): a save that leaves it out keeps it.
  const pinField = deps.engines.fileKind(input.kind)?.pinField;
  const environments: Record<string, Connection> = {};
  for (const [environmentId, connection] of Object.entries(input.environments)) {
    const stored: Connection = { ...connection };
    const kept = previous?.environments[environmentId];
    for (const field of secretFields) {
      const value = stored[field];
      delete stored[field];
      if (typeof value === 'string' && value !== '') {
        stored[ciphertextField(field)] = await deps.secrets.encrypt(
          value,
          secretFieldContext(projectId, input.id, environmentId, field),
        );
      } else if (value === undefined && kept?.[ciphertextField(field)] !== undefined) {
        stored[ciphertextField(field)] = kept[ciphertextField(field)];
      }
    }
    if (pinField && stored[pinField] === undefined && kept?.[pinField] !== undefined) {
      stored[pinField] = kept[pinField];
    }
    // An OAuth connection is made with Connect (decision 0041), never by a save: a save keeps it.
    delete stored[oauthField];
    if (kept?.[oauthField] !== undefined) stored[oauthField] = kept[oauthField];
    environments[environmentId] = stored;
  }
  const dataSource = {
    ...input,
    environments,
    projectId,
    createdAt: previous?.createdAt ?? now,
    updatedAt: now,
  } as DataSource;
  await deps.store.putDataSource(dataSource);
  return { dataSource, created: !previous };
}

/** What callers see: secret fields replaced by whether one is set. */
export function presentDataSource(dataSource: DataSource, secretFields: readonly string[]) {
  const { managedBy: _managedBy, ...visible } = dataSource;
  const environments: Record<string, Connection> = {};
  for (const [environmentId, connection] of Object.entries(dataSource.environments)) {
    const shown: Connection = { ...connection };
    if (shown[oauthField] !== undefined) shown[oauthField] = presentOAuthConnection(shown[oauthField]);
    for (const field of secretFields) {
      shown[presenceField(field)] = shown[ciphertextField(field)] !== undefined;
      delete shown[ciphertextField(field)];
      delete shown[field];
    }
    environments[environmentId] = shown;
  }
  return { ...visible, environments };
}

/** One environment's connection with its secret fields decrypted: only for running or testing it. */
export async function openConnection(
  deps: Pick<ManageDeps, 'secrets' | 'engines'>,
  dataSource: DataSource,
  environmentId: string,
): Promise<Connection> {
  const connection: Connection = { ...dataSource.environments[environmentId] };
  for (const field of deps.engines.secretFields(dataSource.kind)) {
    const ciphertext = connection[ciphertextField(field)];
    delete connection[ciphertextField(field)];
    if (typeof ciphertext === 'string') {
      connection[field] = await deps.secrets.decrypt(
        ciphertext,
        secretFieldContext(dataSource.projectId, dataSource.id, environmentId, field),
      );
    }
  }
  if (connection[oauthField] !== undefined) {
    connection[oauthField] = await openOAuthConnection(
      deps,
      dataSource,
      environmentId,
      connection[oauthField],
    );
  }
  return connection;
}

/** Tries one environment's connection (spec 2.3 "test connection"): how long it took, or why it failed. */
export async function testDataSourceConnection(
  deps: ManageDeps,
  principal: Principal,
  projectId: string,
  dataSourceId: string,
  environmentId: string,
  /** Settings from the form, not saved yet (test before save); secret fields left out use the stored ones. */
  draft?: ConnectionDraft,
): Promise<ConnectionCheckResult> {
  const { dataSource, check } = await connectionCheck(
    deps,
    principal,
    projectId,
    dataSourceId,
    environmentId,
    draft,
  );
  const started = deps.clock.now().getTime();
  try {
    await deps.engines.testConnection(dataSource.kind, check);
    return { ok: true, durationMs: deps.clock.now().getTime() - started };
  } catch (error) {
    const durationMs = deps.clock.now().getTime() - started;
    if (isLostGrant(error)) {
      await markReconnectNeeded(deps.store, dataSource, environmentId, deps.clock.now()).catch(() => {});
    }
    if (error instanceof DoguError) {
      const message = secretsOf(deps, dataSource, check).text(error.message);
      // Through a bridge: which hop failed (Dogu → bridge, the bridge, bridge → target, the target).
      const hop = (error as { hop?: unknown }).hop;
      return {
        ok: false,
        durationMs,
        error: { code: error.code, message, ...(typeof hop === 'string' ? { hop } : {}) },
      };
    }
    return { ok: false, durationMs, error: { code: 'data_source_error', message: 'The connection failed.' } };
  }
}

/** What actions of the data source can call in one environment (gRPC: its unary methods), for the console. */
export async function dataSourceCatalog(
  deps: ManageDeps,
  principal: Principal,
  projectId: string,
  dataSourceId: string,
  environmentId: string,
): Promise<Catalog> {
  const { dataSource, check } = await connectionCheck(
    deps,
    principal,
    projectId,
    dataSourceId,
    environmentId,
  );
  try {
    return await deps.engines.catalog(dataSource.kind, check);
  } catch (error) {
    if (error instanceof DoguError) throw secretsOf(deps, dataSource, check).error(error);
    throw new DoguError('data_source_error', 'The data source could not be asked what it offers.');
  }
}

/** The data source's secret fields (a password a server may echo), to redact from what it answers. */
const secretsOf = (deps: ManageDeps, dataSource: DataSource, check: ConnectionCheck) =>
  new SecretRedactor(deps.engines.secretFields(dataSource.kind).map((field) => check.connection[field]));

const draftKey = (draft: ConnectionDraft) =>
  createHash('sha256').update(JSON.stringify(draft)).digest('hex').slice(0, 16);

/** One environment's settings as the form holds them, checked against the kind's connection schema. */
export interface ConnectionDraft {
  kind: string;
  connection: Connection;
}

/**
 * The data source as it would be saved with `draft` as the environment's settings: a secret field
 * the form left out is the stored one (as a save keeps it), and so is an OAuth grant; a data source
 * of another kind, or none yet, contributes nothing.
 */
function draftDataSource(
  deps: Pick<ManageDeps, 'engines' | 'clock'>,
  projectId: string,
  dataSourceId: string,
  environmentId: string,
  draft: ConnectionDraft,
  stored: DataSource | undefined,
): DataSource {
  const same = stored?.kind === draft.kind ? stored : undefined;
  const kept = same?.environments[environmentId] as Connection | undefined;
  const connection: Connection = { ...draft.connection };
  for (const field of deps.engines.secretFields(draft.kind)) {
    if ((connection[field] === undefined || connection[field] === '') && kept?.[ciphertextField(field)]) {
      delete connection[field];
      connection[ciphertextField(field)] = kept[ciphertextField(field)];
    }
  }
  if (kept?.[oauthField] !== undefined) connection[oauthField] = kept[oauthField];
  const pinField = deps.engines.fileKind(draft.kind)?.pinField;
  if (pinField && connection[pinField] === undefined && kept?.[pinField] !== undefined) {
    connection[pinField] = kept[pinField];
  }
  const now = deps.clock.now().toISOString();
  return {
    ...(same ?? { projectId, id: dataSourceId, name: dataSourceId, createdAt: now, updatedAt: now }),
    kind: draft.kind,
    environments: { [environmentId]: connection },
  } as DataSource;
}

/** Authorises as for managing data sources, then opens one environment's connection to try it. */
async function connectionCheck(
  deps: ManageDeps,
  principal: Principal,
  projectId: string,
  dataSourceId: string,
  environmentId: string,
  draft?: ConnectionDraft,
): Promise<{ dataSource: DataSource; check: ConnectionCheck }> {
  await authorize(deps.store, principal, projectId, 'manage_data_sources');
  const stored = await deps.store.getDataSource(projectId, dataSourceId);
  if (draft) await requireEnvironment(deps.store, projectId, environmentId);
  const dataSource = draft
    ? draftDataSource(deps, projectId, dataSourceId, environmentId, draft, stored)
    : stored;
  if (!dataSource) throw notFound('Data source', dataSourceId);
  if (!dataSource.environments[environmentId]) {
    throw new DoguError(
      'not_found',
      `Data source '${dataSourceId}' has no connection settings for environment '${environmentId}'.`,
    );
  }
  const connection = await openConnection(deps, dataSource, environmentId);
  const bridge = await bridgeRouteFor(deps, dataSource, environmentId, connection);
  return {
    dataSource,
    check: {
      ...(bridge ? { bridge } : {}),
      // A draft's own key: a kind that keeps connections by key must not reuse one of other settings.
      key: `test/${projectId}/${dataSourceId}/${environmentId}${draft ? `/draft-${draftKey(draft)}` : ''}`,
      projectId,
      environmentId,
      connection,
      signal: AbortSignal.timeout(15_000),
      ...(deps.idp ? { identityToken: identityTokenSource(deps.idp, projectId, environmentId) } : {}),
      ...(deps.files && deps.engines.fileKind(dataSource.kind)
        ? { files: dataSourceFiles(deps.files, dataSource, environmentId) }
        : {}),
    },
  };
}

export async function getDataSource(
  deps: ManageDeps,
  principal: Principal,
  projectId: string,
  dataSourceId: string,
) {
  await authorize(deps.store, principal, projectId, 'view');
  const dataSource = await deps.store.getDataSource(projectId, dataSourceId);
  if (!dataSource) throw notFound('Data source', dataSourceId);
  return dataSource;
}

export async function listDataSources(deps: ManageDeps, principal: Principal, projectId: string) {
  await authorize(deps.store, principal, projectId, 'view');
  return deps.store.listDataSources(projectId);
}

export async function deleteDataSource(
  deps: ManageDeps,
  principal: Principal,
  projectId: string,
  dataSourceId: string,
) {
  await authorize(deps.store, principal, projectId, 'manage_data_sources');
  const users = (await deps.store.listActions(projectId))
    .filter((a) => a.dataSourceId === dataSourceId)
    .map((a) => a.id);
  if (users.length > 0) {
    throw new DoguError(
      'state_conflict',
      `Data source '${dataSourceId}' is used by actions ${users.join(', ')}; change or delete them first.`,
      {
        extra: { actions: users },
      },
    );
  }
  const dataSource = await deps.store.getDataSource(projectId, dataSourceId);
  if (!(await deps.store.deleteDataSource(projectId, dataSourceId)))
    throw notFound('Data source', dataSourceId);
  if (dataSource && deps.oauth) await revokeOAuthGrants({ ...deps, oauth: deps.oauth }, dataSource);
  if (dataSource && deps.files && deps.engines.fileKind(dataSource.kind)) {
    await deleteAllFileVersions(
      deps.files,
      projectId,
      dataSourceId,
      await deps.store.listEnvironments(projectId),
    );
  }
}

/** A deleted data source's uploaded files go with it (a new one of the same id starts empty). */
async function deleteAllFileVersions(
  files: FileStorage,
  projectId: string,
  dataSourceId: string,
  environments: { id: string }[],
) {
  for (const environment of environments) {
    for (const version of await files.versions.listFileVersions(projectId, dataSourceId, environment.id)) {
      await files.versions.deleteFileVersion(projectId, dataSourceId, environment.id, version.id);
      await files.blobs.delete(blobKeyOf(version));
    }
  }
}

/** A deleted data source's OAuth grants are revoked at the provider (best effort: it is gone either way). */
async function revokeOAuthGrants(
  deps: Pick<ManageDeps, 'secrets' | 'engines'> & { oauth: OAuthClient },
  dataSource: DataSource,
) {
  for (const environmentId of Object.keys(dataSource.environments)) {
    if (dataSource.environments[environmentId]?.[oauthField] === undefined) continue;
    try {
      const connection = await openConnection(deps, dataSource, environmentId);
      const provider = deps.engines.oauthProvider(dataSource.kind, connection);
      const refreshToken = (connection[oauthField] as { refreshToken?: string } | undefined)?.refreshToken;
      if (provider && refreshToken) await deps.oauth.revoke(provider, refreshToken);
    } catch {
      // The provider may be unreachable; the token is forgotten with the data source.
    }
  }
}
