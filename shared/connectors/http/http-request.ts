/**
 * Builds the HTTP request of an HTTP API action (spec 2.5): data source URL +
 * action path, query parameters, common and action headers, and the body of
 * the request type, with every `{{ reference }}` resolved and encoded for the
 * place it stands in. Pure: the adapter sends what this returns.
 * Decisions and their reasons: docs/decisions/0009-http-engine.md.
 */
import type { KeyValue } from '../../domain/definitions/data-source.ts';
import type { FileValue } from '../../domain/definitions/parameter.ts';
import { DoguError, type FieldError } from '../../domain/errors.ts';
import { renderJsonTemplate, valueAsText } from '../../domain/json-template.ts';
import type { HttpCall } from '../../domain/ports.ts';
import { dotSegmentProblem, type HttpActionInput, type HttpConnection, isDotSegment } from './definition.ts';

export interface HttpCallInput {
  action: Pick<HttpActionInput, 'method' | 'path' | 'headers' | 'query' | 'body'>;
  /** The data source's connection settings for the environment the action runs in. */
  connection: HttpConnection;
  /**
   * The value bound to a reference: a parameter, `vars.x`, `secrets.x`,
   * `currentUser.*`, `authToken`. Throws DoguError for an unknown reference.
   */
  resolve: (ref: string) => unknown;
  /** File arguments by parameter name; only a form-data field can send one. */
  files?: Readonly<Record<string, FileValue>>;
}

const reference = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)\s*\}\}/;
/** Global: for `replace` only (`test` on a global pattern would keep state between calls). */
const everyReference = new RegExp(reference.source, 'g');
const wholeReference = /^\s*\{\{\s*([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)\s*\}\}\s*$/;
const headerName = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** Tab, visible ASCII and Latin-1: what an HTTP/1.1 header value can carry. */
const headerValue = /^[\t\x20-\x7e\x80-\xff]*$/;
/** Framing and connection handling belong to the HTTP client; set by hand they would contradict the body. */
export const framingHeaders: ReadonlySet<string> = new Set([
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
  'proxy-connection',
  'expect',
]);
const methodsWithoutBody = new Set(['GET', 'HEAD']);

export function buildHttpCall(input: HttpCallInput): HttpCall {
  const { action, connection } = input;
  if (methodsWithoutBody.has(action.method) && action.body.type !== 'none') {
    throw new DoguError(
      'bad_request',
      `A ${action.method} request cannot have a body: set the request type to none or use another method.`,
    );
  }
  const resolve = refusingFiles(input.resolve, input.files ?? {});
  const headers = mergeHeaders(
    renderPairs(connection.headers ?? [], resolve, 'header').map(checkedHeader),
    renderPairs(action.headers, resolve, 'header').map(checkedHeader),
  );
  const url = buildUrl(
    connection.url,
    action.path,
    renderPairs(action.query, resolve, 'query parameter'),
    resolve,
  );
  const { body, contentType } = buildBody(
    action.body,
    headerValueOf(headers, 'content-type'),
    resolve,
    input,
  );
  const finalHeaders =
    contentType === undefined
      ? headers
      : [...withoutHeader(headers, 'content-type'), ['content-type', contentType]];
  return {
    method: action.method,
    url,
    headers: finalHeaders as [string, string][],
    ...(body === undefined ? {} : { body }),
  };
}

// ---------------------------------------------------------------- references

/** Text-like places cannot hold a file; naming the rule beats sending "[object Object]". */
function refusingFiles(
  resolve: (ref: string) => unknown,
  files: Readonly<Record<string, FileValue>>,
): (ref: string) => unknown {
  return (ref) => {
    if (Object.hasOwn(files, ref)) {
      throw new DoguError(
        'bad_request',
        `The file parameter '${ref}' can only be sent as the whole value of a form-data field.`,
      );
    }
    return resolve(ref);
  };
}

interface Rendered {
  text: string;
  /** The references the text used, to name them when their values are refused. */
  refs: string[];
}

function renderText(
  template: string,
  resolve: (ref: string) => unknown,
  encode = (s: string) => s,
): Rendered {
  const refs: string[] = [];
  const text = template.replace(everyReference, (_match, ref: string) => {
    refs.push(ref);
    return encode(valueAsText(resolve(ref)));
  });
  return { text, refs };
}

interface RenderedPair {
  key: string;
  value: Rendered;
}

/**
 * Keys are literal, values templated. A pair whose value is one reference
 * bound to no value (a number or date not entered) is left out, so optional
 * filters do not become `limit=`.
 */
function renderPairs(
  pairs: readonly KeyValue[],
  resolve: (ref: string) => unknown,
  place: string,
): RenderedPair[] {
  const rendered: RenderedPair[] = [];
  for (const { key, value } of pairs) {
    if (reference.test(key)) {
      throw new DoguError(
        'bad_request',
        `The ${place} name '${key}' cannot hold a {{ reference }}: only values can.`,
      );
    }
    const whole = wholeReference.exec(value)?.[1];
    if (whole !== undefined) {
      const bound = resolve(whole);
      if (bound === null || bound === undefined) continue;
      rendered.push({ key, value: { text: valueAsText(bound), refs: [whole] } });
      continue;
    }
    rendered.push({ key, value: renderText(value, resolve) });
  }
  return rendered;
}

/**
 * A text refused for what is in it. With references, their values put it there:
 * the caller's arguments, named but never quoted (they may be secrets).
 * Without, the action's definition is wrong.
 */
function refusedValue(refs: readonly string[], detail: string): DoguError {
  if (refs.length === 0) return new DoguError('bad_request', detail);
  const parameters = refs.filter((ref) => !ref.includes('.') && ref !== 'authToken');
  const errors: FieldError[] = parameters.map((name) => ({ pointer: `#/arguments/${name}`, detail }));
  const from = refs.map((ref) => `{{ ${ref} }}`).join(', ');
  return new DoguError(
    'argument_invalid',
    `${detail.replace(/\.$/, '')} (from ${from}).`,
    errors.length > 0 ? { errors } : {},
  );
}

// ---------------------------------------------------------------- headers

type Header = [name: string, value: string];

function checkedHeader({ key, value }: RenderedPair): Header {
  if (!headerName.test(key)) {
    throw new DoguError('bad_request', `'${key}' is not a valid HTTP header name.`);
  }
  if (framingHeaders.has(key.toLowerCase())) {
    throw new DoguError('bad_request', `The header '${key}' is set by Dogu from the request; remove it.`);
  }
  if (/[\r\n]/.test(value.text)) {
    throw refusedValue(value.refs, `The value of the header '${key}' contains a line break.`);
  }
  if (!headerValue.test(value.text)) {
    throw refusedValue(
      value.refs,
      `The value of the header '${key}' contains characters an HTTP header cannot carry (only Latin-1).`,
    );
  }
  // Surrounding whitespace is not part of a header value (RFC 9110 5.5).
  return [key, value.text.trim()];
}

/** Common headers first; an action header replaces every common header of the same name. */
function mergeHeaders(common: readonly Header[], fromAction: readonly Header[]): Header[] {
  const overridden = new Set(fromAction.map(([name]) => name.toLowerCase()));
  return [...common.filter(([name]) => !overridden.has(name.toLowerCase())), ...fromAction];
}

function headerValueOf(headers: readonly Header[], name: string): string | undefined {
  return headers.findLast(([key]) => key.toLowerCase() === name)?.[1];
}

function withoutHeader(headers: readonly Header[], name: string): Header[] {
  return headers.filter(([key]) => key.toLowerCase() !== name);
}

// ---------------------------------------------------------------- URL

function buildUrl(
  baseUrl: string,
  pathTemplate: string,
  query: readonly RenderedPair[],
  resolve: (ref: string) => unknown,
): string {
  const url = new URL(baseUrl);
  const basePath = url.pathname.replace(/\/+$/, '');
  // Spec 2.5: a query string written in the path is not sent; neither is a fragment.
  const path = renderPath(pathTemplate.replace(/[?#].*$/s, ''), resolve);
  if (path !== '') {
    url.pathname = basePath + (path.startsWith('/') ? path : `/${path}`);
  }
  // No dot segment is left to resolve, so this holds; checked anyway, as the last word on it.
  if (url.pathname !== basePath && !url.pathname.startsWith(`${basePath}/`) && basePath !== '') {
    throw new DoguError('bad_request', "The action path leaves the data source's base path.");
  }
  // The data source's own query (e.g. an API version) stays; the action's pairs follow it.
  const pairs = query.map(({ key, value }) => `${encodeURIComponent(key)}=${encodeURIComponent(value.text)}`);
  const search = [url.search.slice(1), ...pairs].filter((part) => part !== '').join('&');
  url.search = search === '' ? '' : `?${search}`;
  url.hash = '';
  return url.href;
}

/**
 * Each `{{ }}` is encoded as one path segment's content: a `/` in a value is
 * %2F, so a value can not add segments. A segment that is `.` or `..` (in any
 * spelling), whether written in the action or made by a value, is refused: URL
 * parsers and servers would resolve it and climb out of the data source's base path.
 */
function renderPath(template: string, resolve: (ref: string) => unknown): string {
  return template
    .split('/')
    .map((segment) => {
      const rendered = renderText(segment, resolve, encodeURIComponent);
      if (rendered.text.split('\\').some(isDotSegment)) {
        throw rendered.refs.length > 0
          ? refusedValue(rendered.refs, `A URL path segment cannot be '.' or '..'.`)
          : new DoguError(
              'bad_request',
              `The action path ${dotSegmentProblem(template) ?? "must not contain '.' or '..' segments"}.`,
            );
      }
      return rendered.text;
    })
    .join('/');
}

// ---------------------------------------------------------------- body

interface Body {
  body: string | Uint8Array | undefined;
  /** The Content-Type to send; undefined leaves the headers as they are. */
  contentType: string | undefined;
}

function buildBody(
  spec: HttpActionInput['body'],
  headerContentType: string | undefined,
  resolve: (ref: string) => unknown,
  input: HttpCallInput,
): Body {
  switch (spec.type) {
    case 'none':
      // Spec 2.5: no body; a Content-Type among the headers is still sent as written.
      return { body: undefined, contentType: undefined };
    case 'json':
      return {
        body: renderJsonTemplate(spec.json, resolve, { describe: 'The JSON body' }),
        contentType: headerContentType ?? 'application/json',
      };
    case 'raw':
      // Raw is raw: values are inserted as text, unescaped; the author owns the format.
      return {
        body: renderText(spec.raw, resolve).text,
        contentType: spec.contentType ?? headerContentType ?? 'text/plain; charset=utf-8',
      };
    case 'x-www-form-urlencoded': {
      const form = new URLSearchParams(
        renderPairs(spec.fields, resolve, 'form field').map(({ key, value }): [string, string] => [
          key,
          value.text,
        ]),
      );
      return { body: form.toString(), contentType: 'application/x-www-form-urlencoded' };
    }
    case 'form-data':
      return multipartBody(spec.fields, resolve, input.files ?? {});
    case 'graphql':
      return { body: graphqlBody(spec, resolve), contentType: headerContentType ?? 'application/json' };
  }
}

/**
 * GraphQL over HTTP: `{query, variables, operationName}` as JSON. The query is
 * not templated: GraphQL has typed variables for values, and splicing text
 * into a query is the injection SQL placeholders exist to prevent.
 */
function graphqlBody(
  spec: Extract<HttpActionInput['body'], { type: 'graphql' }>,
  resolve: (ref: string) => unknown,
): string {
  if (reference.test(spec.query)) {
    throw new DoguError(
      'bad_request',
      'The GraphQL query cannot hold {{ references }}: declare GraphQL variables ($name) in the query and set them in the variables.',
    );
  }
  const members = [`"query":${JSON.stringify(spec.query)}`];
  if (spec.variables !== undefined && spec.variables.trim() !== '') {
    const variables = renderJsonTemplate(spec.variables, resolve, { describe: 'The GraphQL variables' });
    if (!variables.trimStart().startsWith('{')) {
      throw new DoguError('bad_request', 'The GraphQL variables must be a JSON object.');
    }
    members.push(`"variables":${variables}`);
  }
  if (spec.operationName) members.push(`"operationName":${JSON.stringify(spec.operationName)}`);
  return `{${members.join(',')}}`;
}

/**
 * multipart/form-data (RFC 7578), encoded here rather than with the global
 * FormData: the port carries bytes, and serialising a FormData is
 * asynchronous. Names are escaped as the WHATWG HTML standard does.
 */
function multipartBody(
  fields: readonly KeyValue[],
  resolve: (ref: string) => unknown,
  files: Readonly<Record<string, FileValue>>,
): Body {
  const encoder = new TextEncoder();
  const parts: { headers: string; content: Uint8Array }[] = [];
  for (const field of fields) {
    const ref = wholeReference.exec(field.value)?.[1];
    const file = ref !== undefined && Object.hasOwn(files, ref) ? files[ref] : undefined;
    if (file) {
      parts.push({
        headers:
          `Content-Disposition: form-data; name="${escapeFormName(field.key)}"; filename="${escapeFormName(file.name)}"\r\n` +
          `Content-Type: ${file.contentType || 'application/octet-stream'}\r\n`,
        content: fileBytes(ref!, file),
      });
      continue;
    }
    for (const { key, value } of renderPairs([field], resolve, 'form field')) {
      parts.push({
        headers: `Content-Disposition: form-data; name="${escapeFormName(key)}"\r\n`,
        content: encoder.encode(value.text),
      });
    }
  }

  const boundary = boundaryNotIn(parts.map((part) => part.content));
  const chunks: Uint8Array[] = [];
  for (const part of parts) {
    chunks.push(encoder.encode(`--${boundary}\r\n${part.headers}\r\n`), part.content, encoder.encode('\r\n'));
  }
  chunks.push(encoder.encode(`--${boundary}--\r\n`));
  return { body: concatBytes(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

const escapeFormName = (name: string) =>
  name.replaceAll('\n', '%0A').replaceAll('\r', '%0D').replaceAll('"', '%22');

function fileBytes(ref: string, file: FileValue): Uint8Array {
  let binary: string;
  try {
    binary = atob(file.contentBase64);
  } catch {
    throw refusedValue([ref], `The content of the file '${file.name}' is not valid base64.`);
  }
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** Random, and checked against the content: a boundary inside a part would cut it. */
function boundaryNotIn(contents: readonly Uint8Array[]): string {
  for (;;) {
    const random = crypto.getRandomValues(new Uint8Array(16));
    const boundary = `----DoguFormBoundary${[...random].map((b) => b.toString(16).padStart(2, '0')).join('')}`;
    const needle = new TextEncoder().encode(boundary);
    if (!contents.some((content) => containsBytes(content, needle))) return boundary;
  }
}

function containsBytes(haystack: Uint8Array, needle: Uint8Array): boolean {
  outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return true;
  }
  return false;
}

function concatBytes(chunks: readonly Uint8Array[]): Uint8Array {
  const bytes = new Uint8Array(chunks.reduce((total, chunk) => total + chunk.length, 0));
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return bytes;
}
