/**
 * Reads and validates a config file. Every problem is collected (YAML syntax, schema, unknown
 * fields, duplicate ids) and reported with its line and column before anything is sent.
 */
import { readFile } from 'node:fs/promises';
import { LineCounter, parseDocument } from 'yaml';
import { z } from 'zod';
import {
  notificationRuleInFileSchema,
  notificationsInFileSchema,
  notificationTargetInFileSchema,
} from './notifications-schema.ts';
import { formatPath, type Path, type PathSegment } from './path.ts';
import { type ConfigFile, configFileSchema, sectionSchemas } from './schema.ts';
import { type Location, yamlLocator } from './yaml-locations.ts';

export interface ConfigProblem {
  path: Path;
  message: string;
  location: Location | undefined;
}

export interface LoadedConfig {
  file: string;
  config: ConfigFile;
  /** `dogu.yaml:14:7`, or just the file name when the path is not in the file; `key`: where its key is. */
  /** `within`: a line and column inside the string at `path` (see YamlLocator). */
  placeOf(path: Path, at?: 'value' | 'key', within?: Location): string;
}

export class ConfigFileError extends Error {
  constructor(
    readonly file: string,
    readonly problems: ConfigProblem[],
  ) {
    const count = problems.length === 1 ? '1 problem' : `${problems.length} problems`;
    super(
      [
        `${file} has ${count}; nothing was sent:`,
        ...problems.map((p) => `  ${describeProblem(file, p)}`),
      ].join('\n'),
    );
    this.name = 'ConfigFileError';
  }
}

export function describeProblem(file: string, problem: ConfigProblem): string {
  const place = problem.location ? `${file}:${problem.location.line}:${problem.location.column}` : file;
  return problem.path.length === 0
    ? `${place}: ${problem.message}`
    : `${place}: ${formatPath(problem.path)}: ${problem.message}`;
}

export async function loadConfigFile(file: string): Promise<LoadedConfig> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new Error(`${file} could not be read: ${(error as Error).message}`);
  }
  return parseConfigText(text, file);
}

export function parseConfigText(text: string, file: string): LoadedConfig {
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter });
  const locator = yamlLocator(document, lineCounter, text);
  if (document.errors.length > 0) {
    throw new ConfigFileError(
      file,
      document.errors.map((error) => ({
        path: [],
        // The yaml package appends the position and a snippet; the position is printed in front instead.
        message: `YAML: ${error.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '')}`,
        location: error.linePos ? { line: error.linePos[0].line, column: error.linePos[0].col } : undefined,
      })),
    );
  }
  const raw: unknown = document.toJS();
  const problem = (path: Path, message: string, at: 'value' | 'key' = 'value'): ConfigProblem => ({
    path,
    message,
    location: locator.locate(path, at),
  });
  if (!isRecord(raw)) {
    throw new ConfigFileError(file, [
      problem([], raw == null ? 'the file is empty' : 'must be a mapping with version, project, …'),
    ]);
  }

  const parsed = configFileSchema.safeParse(raw);
  const problems = [
    ...(parsed.success
      ? []
      : parsed.error.issues.map((issue) => problem(pathOf(issue.path), messageOf(issue, raw)))),
    ...unknownFields(raw).map((path) => problem(path, `unknown field '${String(path.at(-1))}'`, 'key')),
    ...duplicateIds(raw).map(({ path, message }) => problem(path, message)),
  ];
  if (!parsed.success || problems.length > 0) throw new ConfigFileError(file, sortedByPlace(problems));
  return {
    file,
    config: parsed.data,
    placeOf: (path, at = 'value', within) => {
      const location = locator.locate(path, at, within);
      return location ? `${file}:${location.line}:${location.column}` : file;
    },
  };
}

/** The top-level keys that hold lists of resources, and the field that identifies an item. */
const listSections = {
  masterData: 'id',
  dataSources: 'id',
  actions: 'id',
  members: 'email',
  userGroups: 'id',
  serviceAccounts: 'name',
  actionGroups: 'id',
  views: 'id',
  cronJobs: 'name',
} as const;
const listSectionKeys = Object.keys(listSections) as (keyof typeof listSections)[];

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const pathOf = (path: readonly PropertyKey[]): Path =>
  path.map((segment) => (typeof segment === 'number' ? segment : String(segment)));

function valueAt(value: unknown, path: Path): unknown {
  let current = value;
  for (const segment of path) {
    if (Array.isArray(current) && typeof segment === 'number') current = current[segment];
    else if (isRecord(current)) current = current[segment];
    else return undefined;
  }
  return current;
}

/** zod's messages, except an unknown `kind` (or `type`), which says what was written and what is possible. */
function messageOf(issue: z.core.$ZodIssue, raw: unknown): string {
  if (issue.code === 'invalid_union' && issue.discriminator && 'options' in issue && issue.options) {
    const given = valueAt(raw, pathOf(issue.path));
    const expected = issue.options.map(String).join(', ');
    return given === undefined
      ? `'${issue.discriminator}' is missing; it is one of: ${expected}`
      : `unknown ${issue.discriminator} ${JSON.stringify(given)}; expected one of: ${expected}`;
  }
  if (issue.code === 'invalid_type' && valueAt(raw, pathOf(issue.path)) === undefined) return 'is required';
  return issue.message;
}

/**
 * Fields the schema does not know. zod drops them silently, which would hide typos (`paramaters`);
 * they are found by comparing what was written with what the schema kept. Each list item is parsed
 * on its own, so one broken action does not hide the typos of the others.
 */
function unknownFields(raw: Record<string, unknown>): Path[] {
  const found: Path[] = [];
  for (const key of Object.keys(raw)) {
    if (!(key in configFileSchema.shape)) found.push([key]);
  }
  for (const key of ['variables', 'secrets', 'publications'] as const) {
    const parsed = sectionSchemas[key].safeParse(raw[key]);
    if (parsed.success) found.push(...fieldsDropped(raw[key], parsed.data, [key]));
  }
  for (const key of listSectionKeys)
    found.push(...unknownFieldsOfItems(raw[key], sectionSchemas[key], [key]));
  const { notifications } = raw;
  if (isRecord(notifications)) {
    const shape = notificationsInFileSchema.shape;
    for (const key of Object.keys(notifications)) if (!(key in shape)) found.push(['notifications', key]);
    found.push(
      ...unknownFieldsOfItems(notifications.targets, notificationTargetInFileSchema, [
        'notifications',
        'targets',
      ]),
      ...unknownFieldsOfItems(notifications.rules, notificationRuleInFileSchema, ['notifications', 'rules']),
    );
  }
  return found;
}

function unknownFieldsOfItems(
  items: unknown,
  schema: z.ZodObject | z.ZodDiscriminatedUnion<z.ZodObject[]>,
  path: PathSegment[],
): Path[] {
  if (!Array.isArray(items)) return [];
  return items.flatMap((item, i) => {
    const parsed = schema.safeParse(item);
    return parsed.success
      ? fieldsDropped(item, parsed.data, [...path, i])
      : topLevelFieldsUnknownTo(schema, item, [...path, i]);
  });
}

/** For an item that did not parse: at least its own fields, checked against the shape of its kind. */
function topLevelFieldsUnknownTo(
  schema: z.ZodObject | z.ZodDiscriminatedUnion<z.ZodObject[]>,
  item: unknown,
  path: PathSegment[],
): Path[] {
  if (!isRecord(item)) return [];
  const option = schema instanceof z.ZodObject ? schema : optionFor(schema, item);
  if (!option) return [];
  return Object.keys(item)
    .filter((key) => !(key in option.shape))
    .map((key) => [...path, key]);
}

function optionFor(schema: z.ZodDiscriminatedUnion<z.ZodObject[]>, item: Record<string, unknown>) {
  const discriminator = schema.def.discriminator;
  return schema.options.find((o) => {
    const tag = o.shape[discriminator];
    return tag instanceof z.ZodLiteral && tag.value === item[discriminator];
  });
}

function fieldsDropped(written: unknown, kept: unknown, path: PathSegment[]): Path[] {
  if (Array.isArray(written) && Array.isArray(kept)) {
    return written.flatMap((item, i) => fieldsDropped(item, kept[i], [...path, i]));
  }
  if (!isRecord(written) || !isRecord(kept)) return [];
  return Object.keys(written).flatMap((key) =>
    key in kept ? fieldsDropped(written[key], kept[key], [...path, key]) : [[...path, key]],
  );
}

/**
 * Ids (members: e-mail addresses; cron jobs: names per environment) must be unique within a list: the
 * second would silently replace the first.
 */
function duplicateIds(raw: Record<string, unknown>): { path: Path; message: string }[] {
  const problems: { path: Path; message: string }[] = [];
  for (const key of listSectionKeys) {
    const items = raw[key];
    if (!Array.isArray(items)) continue;
    const field = listSections[key];
    const firstIndex = new Map<unknown, number>();
    items.forEach((item, i) => {
      const id = isRecord(item) ? item[field] : undefined;
      if (typeof id !== 'string') return;
      // E-mail addresses are compared without regard to case; cron job names are unique per environment.
      const environment = key === 'cronJobs' && isRecord(item) ? String(item.environment) : undefined;
      const key_ =
        field === 'email'
          ? id.toLowerCase()
          : environment === undefined
            ? id
            : `${environment}\n${id.trim()}`;
      const first = firstIndex.get(key_);
      if (first === undefined) firstIndex.set(key_, i);
      else
        problems.push({
          path: [key, i, field],
          message:
            `'${id}' is already the ${field === 'email' ? 'e-mail address' : field} of ${key}[${first}]` +
            (environment === undefined
              ? ''
              : ` in environment '${environment}' (names are unique per environment)`),
        });
    });
  }
  return problems;
}

function sortedByPlace(problems: ConfigProblem[]): ConfigProblem[] {
  const key = (p: ConfigProblem) => (p.location ? p.location.line * 100_000 + p.location.column : 0);
  return [...problems].sort((a, b) => key(a) - key(b));
}
