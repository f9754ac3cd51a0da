/**
 * Messages ⇄ proto3 JSON (protobufjs' protojson): requests are checked field by field so an error
 * names the field's path (items[0].sku), replies keep 64-bit integers as exact decimal strings and
 * list every top-level field (defaults included) so results have stable columns.
 */
import protobuf from 'protobufjs';
import type * as ProtoJson from 'protobufjs/ext/protojson.js';
import protojsonModule from 'protobufjs/ext/protojson.js';
import { DoguError } from '../../domain/errors.ts';
import { inexactNumbersIn } from '../../domain/exact-numbers.ts';

// Node's own ESM loader exposes this CommonJS module only as its default export (no named ones).
const protojson = protojsonModule as unknown as typeof ProtoJson;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Well-known types have their own JSON forms (Timestamp as text, Struct as any object …). */
const isWellKnown = (type: protobuf.Type) => type.fullName.startsWith('.google.protobuf.');

export function requestMessage(type: protobuf.Type, json: string): protobuf.Message {
  const value: unknown = JSON.parse(json);
  const name = type.fullName.replace(/^\./, '');
  refuseInexactNumbers(json, name);
  if (!isRecord(value)) throw unfit(name, '', 'the request must be a JSON object');
  checkFields(type, value, '', name);
  try {
    return protojson.fromJson(type, value);
  } catch (error) {
    // protojson names the field and quotes the value (".shop.v1.Order.totalCents: invalid integer: "x"");
    // the value is left out: it may come from a secret.
    const [where = '', problem = 'invalid value'] = (error as Error).message.replace(/^\./, '').split(': ');
    throw unfit(name, '', `${where}: ${problem}`);
  }
}

/**
 * Decision 0025: JSON.parse rounds 9007199254740993 to …992, and protojson would encode the rounded
 * int64 without a word. proto3 JSON takes 64-bit integers as strings, so the literal can be quoted.
 */
function refuseInexactNumbers(json: string, typeName: string) {
  const inexact = inexactNumbersIn(json)[0];
  if (!inexact) return;
  const path = inexact.pointer
    .split('/')
    .slice(1)
    .map((segment) => segment.replaceAll('~1', '/').replaceAll('~0', '~'))
    .map((segment, i) => (/^\d+$/.test(segment) ? `[${segment}]` : i === 0 ? segment : `.${segment}`))
    .join('');
  throw unfit(
    typeName,
    path,
    `${inexact.literal} ${inexact.problem.replace(/;.*$/, '')}; write 64-bit integers as strings ("${inexact.literal}"), as proto3 JSON allows`,
  );
}

function checkFields(type: protobuf.Type, value: Record<string, unknown>, path: string, name: string) {
  if (isWellKnown(type)) return;
  for (const [key, member] of Object.entries(value)) {
    const field = type.fields[key] ?? type.fieldsArray.find((f) => jsonNameOf(f) === key);
    const at = path ? `${path}.${key}` : key;
    if (!field) {
      const known = type.fieldsArray.map(jsonNameOf).join(', ');
      throw unfit(name, at, `unknown field (${type.name} has: ${known || 'no fields'})`);
    }
    field.resolve();
    const fieldType = field.resolvedType;
    if (!(fieldType instanceof protobuf.Type) || member === null) continue;
    if (field.map && isRecord(member)) {
      for (const [k, v] of Object.entries(member))
        if (isRecord(v)) checkFields(fieldType, v, `${at}.${k}`, name);
    } else if (field.repeated && Array.isArray(member)) {
      member.forEach((item, i) => {
        if (isRecord(item)) checkFields(fieldType, item, `${at}[${i}]`, name);
      });
    } else if (isRecord(member)) checkFields(fieldType, member, at, name);
  }
}

function unfit(typeName: string, path: string, detail: string): DoguError {
  return new DoguError(
    'argument_invalid',
    `The request does not fit ${typeName}${path ? ` at '${path}'` : ''}: ${detail}.`,
    {
      errors: [
        {
          pointer: `#/request${path ? `/${path.replace(/\[(\d+)\]/g, '/$1').replaceAll('.', '/')}` : ''}`,
          detail,
        },
      ],
    },
  );
}

/** lowerCamelCase, as proto3 JSON writes field names. */
const jsonNameOf = (field: protobuf.Field) =>
  field.name.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());

const sixtyFourBit = new Set(['int64', 'uint64', 'sint64', 'fixed64', 'sfixed64']);
const numeric = new Set(['int32', 'uint32', 'sint32', 'fixed32', 'sfixed32', 'double', 'float']);

/** The reply as proto3 JSON with every top-level field present (proto3 leaves defaults out). */
export function replyJson(type: protobuf.Type, message: protobuf.Message): Record<string, unknown> {
  const json = protojson.toJson(type, message);
  const reply: Record<string, unknown> = isRecord(json) ? json : { value: json };
  if (isWellKnown(type)) return reply;
  const complete: Record<string, unknown> = {};
  for (const field of type.fieldsArray) {
    const name = jsonNameOf(field);
    complete[name] = name in reply ? reply[name] : defaultJson(field);
  }
  return complete;
}

function defaultJson(field: protobuf.Field): unknown {
  if (field.map) return {};
  if (field.repeated) return [];
  field.resolve();
  if (field.resolvedType instanceof protobuf.Enum) {
    const values = field.resolvedType.values;
    return Object.keys(values).find((k) => values[k] === 0) ?? 0;
  }
  if (field.resolvedType instanceof protobuf.Type) return null;
  if (field.partOf && field.partOf.oneof.length > 0) return null;
  if (sixtyFourBit.has(field.type)) return '0';
  if (numeric.has(field.type)) return 0;
  if (field.type === 'bool') return false;
  return '';
}

/** A JSON skeleton of a request message, for the console's method picker. */
export function requestTemplate(type: protobuf.Type): string {
  return JSON.stringify(skeleton(type, new Set()), null, 2);
}

function skeleton(type: protobuf.Type, seen: Set<string>): unknown {
  if (type.fullName === '.google.protobuf.Timestamp') return '1970-01-01T00:00:00Z';
  if (type.fullName === '.google.protobuf.Duration') return '0s';
  if (isWellKnown(type)) return null;
  if (seen.has(type.fullName)) return {};
  const inner = new Set(seen).add(type.fullName);
  const body: Record<string, unknown> = {};
  for (const field of type.fieldsArray) {
    field.resolve();
    const name = jsonNameOf(field);
    if (field.map) body[name] = {};
    else if (field.repeated)
      body[name] = field.resolvedType instanceof protobuf.Type ? [skeleton(field.resolvedType, inner)] : [];
    else if (field.resolvedType instanceof protobuf.Type) body[name] = skeleton(field.resolvedType, inner);
    else body[name] = defaultJson(field);
  }
  return body;
}
