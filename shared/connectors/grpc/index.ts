/**
 * gRPC services (spec 2.5, 2.10): unary methods described by server reflection or an uploaded
 * protoset, requests as proto3 JSON with {{ parameters }}, replies as results (docs/grpc.md).
 */
import { DoguError } from '../../domain/errors.ts';
import { inexactMessage, inexactNumbersIn } from '../../domain/exact-numbers.ts';
import { renderJsonTemplate } from '../../domain/json-template.ts';
import { referencesIn } from '../../domain/template.ts';
import type { ConnectorDefinition } from '../connector.ts';
import { field } from '../form-field.ts';
import {
  type GrpcActionInput,
  type GrpcConnection,
  grpcActionShape,
  grpcActionTexts,
  grpcConnectionSchema,
  grpcServiceSources,
} from './definition.ts';

/** Protosets are descriptor sets with imports included; a few MB at most in practice. */
export const maxProtosetBytes = 8 * 1024 * 1024;

export const grpc: ConnectorDefinition = {
  kind: 'grpc',
  actionKind: 'grpc',
  label: { en: 'gRPC', ja: 'gRPC' },
  connection: grpcConnectionSchema,
  action: grpcActionShape,
  secretFields: [],
  bridgeable: true,
  form: {
    connection: [
      field('address', 'text', 'Address (host:port)', 'アドレス（ホスト:ポート）', {
        required: true,
        hint: {
          en: 'For example api.example.com:443, without a scheme.',
          ja: '例: api.example.com:443（スキームなし）',
        },
      }),
      field('tls', 'boolean', 'Use TLS', 'TLS を使う', { default: false }),
      field('caCertificate', 'textarea', 'CA certificate (PEM)', 'CA 証明書（PEM）', {
        hint: {
          en: 'Only for a server whose certificate a private CA signed.',
          ja: 'プライベート CA が署名した証明書のサーバーの場合のみ。',
        },
      }),
      field('serviceSource', 'select', 'Service information', 'サービス情報', {
        required: true,
        options: grpcServiceSources,
        default: 'reflection',
        hint: {
          en: 'reflection: asked from the server; protoset: an uploaded descriptor set (protoc --include_imports).',
          ja: 'reflection: サーバーから取得。protoset: アップロードした記述子セット（protoc --include_imports）。',
        },
      }),
      field('protosetVersionId', 'text', 'Protoset version', 'Protoset のバージョン', {
        hint: { en: 'Empty: always the latest upload.', ja: '空欄: 常に最新のアップロード。' },
      }),
      field('metadata', 'key-value-list', 'Common metadata', '共通メタデータ', {
        hint: {
          en: 'Sent with every call; values may use {{ vars.x }}, {{ secrets.x }} and {{ authToken }}.',
          ja: 'すべての呼び出しに付けます。値に {{ vars.x }}、{{ secrets.x }}、{{ authToken }} を使えます。',
        },
      }),
    ],
    action: [
      field('service', 'text', 'Service', 'サービス', { required: true }),
      field('method', 'text', 'Method', 'メソッド', {
        required: true,
        catalog: true,
        hint: {
          en: 'Unary methods only; choose one from the list to fill the request.',
          ja: '単項メソッドのみ。一覧から選ぶとリクエストのひな形が入ります。',
        },
      }),
      field('request', 'code', 'Request (JSON)', 'リクエスト（JSON）', {
        language: 'json',
        default: '{}',
        hint: {
          en: 'proto3 JSON of the request message; 64-bit integers as "decimal strings".',
          ja: 'リクエストメッセージの proto3 JSON。64 ビット整数は "10 進文字列" で。',
        },
      }),
    ],
    authAction: true,
  },
  cloudPermissions: [],
  actionTexts: (action) => grpcActionTexts(action as GrpcActionInput),
  connectionTexts: (connection) => ((connection as GrpcConnection).metadata ?? []).map((m) => m.value),
  validate(action, context) {
    const grpcAction = action as GrpcActionInput;
    grpcAction.parameters.forEach((parameter, i) => {
      if (parameter.kind === 'array' && parameter.format === 'sql')
        context.fail(`#/parameters/${i}/format`, 'the sql format is for SQL actions; use json or delimiter');
      if (parameter.kind === 'file')
        context.fail(`#/parameters/${i}/kind`, 'a gRPC request is JSON and cannot carry a file parameter');
    });
    for (const [pointer, text] of grpcActionTexts(grpcAction)) {
      for (const reference of referencesIn(text)) context.check(reference, pointer);
    }
    try {
      const skeleton = renderJsonTemplate(grpcAction.request, () => null, { describe: 'The request' });
      // A request that is one whole reference ({{ order }}) gets its object from a json parameter.
      const wholeReference = /^\s*\{\{[^}]*\}\}\s*$/.test(grpcAction.request);
      if (!wholeReference && !skeleton.trimStart().startsWith('{'))
        context.fail('#/request', 'the request must be a JSON object');
      // Decision 0025 at save, as at run (grpc-json.ts): a literal that would be rounded is refused.
      const inexact = inexactNumbersIn(skeleton)[0];
      if (inexact)
        context.fail(
          '#/request',
          `${inexactMessage(inexact)} (proto3 JSON takes 64-bit integers as strings: "${inexact.literal}")`,
        );
    } catch (error) {
      if (!(error instanceof DoguError)) throw error;
      context.fail('#/request', error.message);
    }
  },
  files: {
    name: 'protoset',
    maxBytes: maxProtosetBytes,
  },
};
