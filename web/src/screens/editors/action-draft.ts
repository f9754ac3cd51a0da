/**
 * The action editor's state and the PUT body. Each parameter is edited as its common fields
 * (name, kind, label, required), the settings most parameters need as form fields (default,
 * choices, min/max, pattern, format: parameter-settings.ts) and whatever else as JSON, so every
 * parameter kind the API knows can be edited; the server validates and names bad fields.
 */
import type { Parameter } from '../../api/types.ts';
import { type ParameterSettings, settingsMembers, splitSettings } from './parameter-settings.ts';

export interface ParameterDraft {
  name: string;
  kind: Parameter['kind'];
  label: string;
  required: boolean;
  /** The settings shown as form fields. */
  settings: ParameterSettings;
  /** The remaining fields of the parameter as a JSON object text. */
  extra: string;
}

export interface ActionDraft {
  id: string;
  name: string;
  description: string;
  dataSourceId: string;
  /** The action kind its data source runs (sql, http, or another kind's; GET /api/v1/connector-kinds). */
  kind: string;
  /** `previewSql`: the optional SELECT a preview runs before and after the statement (decision 0185). */
  statements: { title: string; sql: string; previewSql?: string }[];
  method: string;
  path: string;
  parameters: ParameterDraft[];
  permissionMode: 'everyone' | 'restricted' | 'javascript_action';
  permissionUsers: string;
  permissionRoles: string[];
  permissionGroups: string;
  /** Mode javascript_action: the JavaScript action that alone may run this one. */
  permissionJavascriptActionId: string;
  /** Optional script that reshapes the result (docs/javascript.md); empty: none. */
  transformerScript: string;
  transformerTimeLimitMs: string;
  reviewRequired: boolean;
  reviewExpiresInMinutes: string;
  /** '' lets Dogu judge from the statements or method (docs/governance.md); otherwise the author's word. */
  effect: '' | 'reads' | 'changes';
  changeMessage: string;
  /** Fields this editor does not show (HTTP headers, body, query…), sent back unchanged. */
  rest: Record<string, unknown>;
}

export const emptyActionDraft = (): ActionDraft => ({
  id: '',
  name: '',
  description: '',
  dataSourceId: '',
  kind: 'sql',
  statements: [{ title: 'Result', sql: '' }],
  method: 'GET',
  path: '',
  parameters: [],
  permissionMode: 'everyone',
  permissionUsers: '',
  permissionRoles: [],
  permissionGroups: '',
  permissionJavascriptActionId: '',
  transformerScript: '',
  transformerTimeLimitMs: '',
  reviewRequired: false,
  reviewExpiresInMinutes: '',
  effect: '',
  changeMessage: '',
  rest: {},
});

const list = (text: string) =>
  text
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);

export function actionDraftOf(action: Record<string, unknown>): ActionDraft {
  const {
    id,
    name,
    description,
    dataSourceId,
    kind,
    statements,
    method,
    path,
    parameters,
    permission,
    review,
    transformer,
    effect,
    version: _v,
    createdAt: _c,
    updatedAt: _u,
    updatedBy: _b,
    projectId: _p,
    ...rest
  } = action as Record<string, never>;
  const perm = (permission ?? {}) as {
    mode?: ActionDraft['permissionMode'];
    users?: string[];
    roles?: string[];
    groups?: string[];
    javascriptActionId?: string;
  };
  const script = (transformer ?? {}) as { script?: string; timeLimitMs?: number };
  const rev = (review ?? {}) as { required?: boolean; expiresInMinutes?: number };
  return {
    id: id ?? '',
    name: name ?? '',
    description: description ?? '',
    dataSourceId: dataSourceId ?? '',
    kind: typeof kind === 'string' && kind ? kind : 'sql',
    statements: (statements as { title: string; sql: string; previewSql?: string }[] | undefined) ?? [
      { title: 'Result', sql: '' },
    ],
    method: method ?? 'GET',
    path: path ?? '',
    parameters: ((parameters ?? []) as Parameter[]).map((parameter) => {
      const {
        name: pName,
        kind: pKind,
        label,
        required,
        ...other
      } = parameter as Parameter & Record<string, unknown>;
      const { settings, rest: remaining } = splitSettings(pKind, other);
      return {
        name: pName,
        kind: pKind,
        label: (label as string | undefined) ?? '',
        required: Boolean(required),
        settings,
        extra: Object.keys(remaining).length ? JSON.stringify(remaining, null, 2) : '',
      };
    }),
    permissionMode: perm.mode ?? 'everyone',
    permissionUsers: (perm.users ?? []).join(', '),
    permissionRoles: perm.roles ?? [],
    permissionGroups: (perm.groups ?? []).join(', '),
    permissionJavascriptActionId: perm.javascriptActionId ?? '',
    transformerScript: script.script ?? '',
    transformerTimeLimitMs: script.timeLimitMs ? String(script.timeLimitMs) : '',
    reviewRequired: Boolean(rev.required),
    effect: effect === 'reads' || effect === 'changes' ? effect : '',
    reviewExpiresInMinutes: rev.expiresInMinutes ? String(rev.expiresInMinutes) : '',
    changeMessage: '',
    // `method` and `path` are HTTP's own editors; other kinds (gRPC, storage) keep theirs in `rest`.
    rest:
      kind === 'http' || kind === 'sql'
        ? (rest as Record<string, unknown>)
        : {
            ...(rest as Record<string, unknown>),
            ...(method !== undefined ? { method } : {}),
            ...(path !== undefined ? { path } : {}),
          },
  };
}

/** The body, or the index of a parameter whose extra settings are not a JSON object. */
export function actionBody(
  draft: ActionDraft,
): { ok: true; body: Record<string, unknown> } | { ok: false; parameter: number } {
  const parameters: Record<string, unknown>[] = [];
  for (const [index, parameter] of draft.parameters.entries()) {
    let extra: Record<string, unknown> = {};
    if (parameter.extra.trim()) {
      try {
        const parsed: unknown = JSON.parse(parameter.extra);
        if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
          return { ok: false, parameter: index };
        extra = parsed as Record<string, unknown>;
      } catch {
        return { ok: false, parameter: index };
      }
    }
    parameters.push({
      ...extra,
      ...settingsMembers(parameter.kind, parameter.settings),
      name: parameter.name,
      kind: parameter.kind,
      ...(parameter.label ? { label: parameter.label } : {}),
      ...(parameter.required ? { required: true } : {}),
    });
  }
  const permission =
    draft.permissionMode === 'everyone'
      ? { mode: 'everyone' }
      : {
          mode: draft.permissionMode,
          ...(list(draft.permissionUsers).length ? { users: list(draft.permissionUsers) } : {}),
          ...(draft.permissionRoles.length ? { roles: draft.permissionRoles } : {}),
          ...(list(draft.permissionGroups).length ? { groups: list(draft.permissionGroups) } : {}),
          ...(draft.permissionMode === 'javascript_action' && draft.permissionJavascriptActionId
            ? { javascriptActionId: draft.permissionJavascriptActionId }
            : {}),
        };
  const body: Record<string, unknown> = {
    ...draft.rest,
    id: draft.id,
    name: draft.name,
    ...(draft.description ? { description: draft.description } : {}),
    kind: draft.kind,
    dataSourceId: draft.dataSourceId,
    parameters,
    permission,
    review: {
      required: draft.reviewRequired,
      ...(draft.reviewExpiresInMinutes ? { expiresInMinutes: Number(draft.reviewExpiresInMinutes) } : {}),
    },
    ...(draft.effect ? { effect: draft.effect } : {}),
    ...(draft.changeMessage ? { changeMessage: draft.changeMessage } : {}),
    ...(draft.transformerScript.trim()
      ? {
          transformer: {
            script: draft.transformerScript,
            ...(draft.transformerTimeLimitMs ? { timeLimitMs: Number(draft.transformerTimeLimitMs) } : {}),
          },
        }
      : {}),
  };
  // SQL and HTTP have editors of their own; another kind's fields live in `rest`, edited from its descriptor.
  if (draft.kind === 'sql') {
    // An emptied preview query is no preview query.
    body.statements = draft.statements.map(({ previewSql, ...statement }) =>
      previewSql?.trim() ? { ...statement, previewSql } : statement,
    );
  } else if (draft.kind === 'http') {
    body.method = draft.method;
    body.path = draft.path;
    delete body.statements;
  }
  return { ok: true, body };
}
