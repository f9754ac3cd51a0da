/**
 * Firestore and Datastore values to JSON and back (docs/javascript.md#document-databases):
 * timestamps as ISO text, geo points as { latitude, longitude }, references and keys as paths,
 * bytes as base64, integers as numbers when exact (else text). Written from a script: the same
 * JSON, or `{ $timestamp }`, `{ $geoPoint }`, `{ $reference }`, `{ $bytes }`, `{ $key }`, `{ $integer }`.
 */
import { DoguError } from '../../domain/errors.ts';

type Json = unknown;
export type RemoteValue = Record<string, unknown>;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Integers beyond 2^53 stay text, so no digit changes on the way. */
const integerOut = (text: string) => (Number.isSafeInteger(Number(text)) ? Number(text) : text);

function specialIn(
  value: Record<string, unknown>,
  flavour: 'firestore' | 'datastore',
  refer: (path: string) => unknown,
) {
  const [name] = Object.keys(value);
  if (Object.keys(value).length !== 1 || !name?.startsWith('$')) return undefined;
  const inner = value[name];
  switch (name) {
    case '$timestamp':
      if (typeof inner !== 'string' || Number.isNaN(Date.parse(inner)))
        throw new DoguError('argument_invalid', '$timestamp needs an ISO date-time text.');
      return { timestampValue: new Date(inner).toISOString() };
    case '$geoPoint':
      if (!isRecord(inner) || typeof inner.latitude !== 'number' || typeof inner.longitude !== 'number')
        throw new DoguError('argument_invalid', '$geoPoint needs { latitude, longitude } as numbers.');
      return { geoPointValue: { latitude: inner.latitude, longitude: inner.longitude } };
    case '$bytes':
      if (typeof inner !== 'string') throw new DoguError('argument_invalid', '$bytes needs base64 text.');
      return flavour === 'firestore' ? { bytesValue: inner } : { blobValue: inner };
    case '$integer':
      if (typeof inner !== 'string' || !/^-?\d{1,19}$/.test(inner))
        throw new DoguError('argument_invalid', '$integer needs the digits of a 64-bit integer.');
      return { integerValue: inner };
    case '$reference':
      if (flavour !== 'firestore' || typeof inner !== 'string')
        throw new DoguError('argument_invalid', '$reference needs a document path (document mode).');
      return { referenceValue: refer(inner) };
    case '$key':
      if (flavour !== 'datastore' || !Array.isArray(inner))
        throw new DoguError('argument_invalid', '$key needs a key path (key-entity mode).');
      return { keyValue: refer(inner as never) };
    default:
      return undefined;
  }
}

export function toRemote(
  value: Json,
  flavour: 'firestore' | 'datastore',
  refer: (path: never) => unknown,
): RemoteValue {
  if (value === null || value === undefined) return { nullValue: null };
  if (typeof value === 'boolean') return { booleanValue: value };
  if (typeof value === 'number') {
    return Number.isInteger(value) ? { integerValue: String(value) } : { doubleValue: value };
  }
  if (typeof value === 'string') return { stringValue: value };
  if (Array.isArray(value)) return { arrayValue: { values: value.map((v) => toRemote(v, flavour, refer)) } };
  if (isRecord(value)) {
    const special = specialIn(value, flavour, refer as (path: string) => unknown);
    if (special) return special;
    const fields = fieldsToRemote(value, flavour, refer);
    return flavour === 'firestore' ? { mapValue: { fields } } : { entityValue: { properties: fields } };
  }
  throw new DoguError('argument_invalid', `A ${typeof value} cannot be stored.`);
}

export function fieldsToRemote(
  data: unknown,
  flavour: 'firestore' | 'datastore',
  refer: (path: never) => unknown,
): Record<string, RemoteValue> {
  if (!isRecord(data)) throw new DoguError('argument_invalid', 'The data to write must be an object.');
  return Object.fromEntries(Object.entries(data).map(([name, v]) => [name, toRemote(v, flavour, refer)]));
}

/** One remote value as JSON; `path` turns a reference or key into what the script sees. */
export function fromRemote(value: RemoteValue, path: (remote: unknown) => unknown): Json {
  if ('nullValue' in value) return null;
  if ('booleanValue' in value) return value.booleanValue;
  if ('integerValue' in value) return integerOut(String(value.integerValue));
  if ('doubleValue' in value) return Number(value.doubleValue);
  if ('stringValue' in value) return value.stringValue;
  if ('timestampValue' in value) return new Date(String(value.timestampValue)).toISOString();
  if ('geoPointValue' in value) {
    const point = value.geoPointValue as { latitude?: number; longitude?: number };
    return { latitude: point.latitude ?? 0, longitude: point.longitude ?? 0 };
  }
  if ('bytesValue' in value) return value.bytesValue;
  if ('blobValue' in value) return value.blobValue;
  if ('referenceValue' in value) return path(value.referenceValue);
  if ('keyValue' in value) return path(value.keyValue);
  if ('arrayValue' in value) {
    const values = ((value.arrayValue as { values?: RemoteValue[] }).values ?? []) as RemoteValue[];
    return values.map((v) => fromRemote(v, path));
  }
  if ('mapValue' in value)
    return fieldsFromRemote((value.mapValue as { fields?: Record<string, RemoteValue> }).fields, path);
  if ('entityValue' in value)
    return fieldsFromRemote(
      (value.entityValue as { properties?: Record<string, RemoteValue> }).properties,
      path,
    );
  return null;
}

export function fieldsFromRemote(
  fields: Record<string, RemoteValue> | undefined,
  path: (remote: unknown) => unknown,
) {
  return Object.fromEntries(Object.entries(fields ?? {}).map(([name, v]) => [name, fromRemote(v, path)]));
}
