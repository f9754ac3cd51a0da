/** HTTP APIs (spec 2.3, 2.5): requests built from templates, responses as tables, values or media. */
import { referencesIn } from '../../domain/template.ts';
import type { ConnectorDefinition } from '../connector.ts';
import { field } from '../form-field.ts';
import {
  dotSegmentProblem,
  type HttpActionInput,
  type HttpConnection,
  httpActionShape,
  httpActionTexts,
  httpConnectionSchema,
  httpMethods,
} from './definition.ts';

export const http: ConnectorDefinition = {
  kind: 'http',
  actionKind: 'http',
  label: { en: 'HTTP API', ja: 'HTTP API' },
  connection: httpConnectionSchema,
  action: httpActionShape,
  secretFields: [],
  bridgeable: true,
  form: {
    connection: [
      field('url', 'text', 'Base URL', 'ベース URL', { required: true }),
      field('headers', 'key-value-list', 'Common headers', '共通ヘッダー', {
        hint: {
          en: 'Sent with every request; values may use {{ vars.x }} and {{ secrets.x }}.',
          ja: 'すべてのリクエストに付けます。値に {{ vars.x }} や {{ secrets.x }} を使えます。',
        },
      }),
      field('timeoutMs', 'number', 'Time limit (ms)', '制限時間（ミリ秒）'),
      field('allowPrivateNetworks', 'boolean', 'Allow private networks', 'プライベートネットワークを許可', {
        default: false,
        hint: {
          en: 'On AWS, private (10/8, 172.16/12, 192.168/16) addresses are refused unless allowed here. Loopback and metadata addresses are always refused there.',
          ja: 'AWS では、ここで許可しない限りプライベートアドレス（10/8、172.16/12、192.168/16）への接続を拒否します。ループバックとメタデータのアドレスは常に拒否します。',
        },
      }),
    ],
    action: [
      field('method', 'select', 'Method', 'メソッド', {
        required: true,
        options: httpMethods,
        default: 'GET',
      }),
      field('path', 'text', 'Path', 'パス'),
      field('headers', 'key-value-list', 'Headers', 'ヘッダー'),
      field('query', 'key-value-list', 'Query parameters', 'クエリパラメーター'),
      field('body', 'code', 'Body', 'ボディ', { language: 'json' }),
    ],
    authAction: true,
  },
  cloudPermissions: [],
  actionTexts: (action) => httpActionTexts(action as HttpActionInput),
  connectionTexts: (connection) => ((connection as HttpConnection).headers ?? []).map((h) => h.value),
  validate(action, context) {
    const httpAction = action as HttpActionInput;
    httpAction.parameters.forEach((parameter, i) => {
      if (parameter.kind === 'array' && parameter.format === 'sql')
        context.fail(`#/parameters/${i}/format`, 'the sql format is for SQL actions; use json or delimiter');
    });
    for (const [pointer, text] of httpActionTexts(httpAction)) {
      for (const reference of referencesIn(text)) context.check(reference, pointer);
    }
    const climbs = dotSegmentProblem(httpAction.path);
    if (climbs) context.fail('#/path', climbs);
    if ((httpAction.method === 'GET' || httpAction.method === 'HEAD') && httpAction.body.type !== 'none') {
      context.fail('#/body/type', `${httpAction.method} requests carry no body; use request type none`);
    }
  },
};
