/**
 * A gRPC reply as the action's result. The whole reply is the result's value (proto3 JSON). The
 * table: a reply whose only field is a repeated message (ListOrdersResponse { repeated Order
 * orders }) shows one row per item; any other reply is one row with a column per top-level field.
 */
import type protobuf from 'protobufjs';
import type { Column, ColumnType, StatementResult } from '../../domain/model.ts';
import { replyJson } from './grpc-json.ts';

export interface GrpcStatementResult extends StatementResult {
  value: Record<string, unknown>;
  grpc: { service: string; method: string; status: 'OK' };
}

export function shapeGrpcResult(
  title: string,
  call: { service: string; method: string; reply: protobuf.Type },
  message: protobuf.Message,
): GrpcStatementResult {
  const value = replyJson(call.reply, message);
  const fields = call.reply.fieldsArray;
  const only = fields.length === 1 ? fields[0]! : undefined;
  const items =
    only?.repeated && !only.map && only.resolve().resolvedType ? Object.values(value)[0] : undefined;
  const records =
    Array.isArray(items) &&
    items.every((item) => typeof item === 'object' && item !== null && !Array.isArray(item))
      ? (items as Record<string, unknown>[])
      : [value];
  const names = [...new Set(records.flatMap((r) => Object.keys(r)))];
  const rows = records.map((r) => Object.fromEntries(names.map((n) => [n, r[n] ?? null])));
  const columns: Column[] = names.map((name) => ({ name, type: columnTypeOf(rows.map((row) => row[name])) }));
  return {
    title,
    status: 'succeeded',
    columns,
    rows,
    rowCount: rows.length,
    messages: [],
    value,
    grpc: { service: call.service, method: call.method, status: 'OK' },
  };
}

/** One type when all non-null values share it; nested values or a mix are 'json'. */
function columnTypeOf(values: readonly unknown[]): ColumnType {
  const types = new Set<ColumnType>();
  for (const value of values) {
    if (value === null) continue;
    if (typeof value === 'string') types.add('string');
    else if (typeof value === 'number') types.add('number');
    else if (typeof value === 'boolean') types.add('boolean');
    else types.add('json');
  }
  if (types.size === 0) return 'string';
  return types.size === 1 ? [...types][0]! : 'json';
}
