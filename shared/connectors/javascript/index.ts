/**
 * JavaScript actions (spec 1, 2.1): a script run in the sandbox that may call other actions of the
 * project with `await actions.run(id, args)` (docs/javascript.md).
 */
import { referencesIn } from '../../domain/template.ts';
import type { ConnectorDefinition } from '../connector.ts';
import {
  type JavascriptActionInput,
  javascriptActionShape,
  javascriptActionTexts,
  javascriptConnectionSchema,
} from './definition.ts';

export const javascript: ConnectorDefinition = {
  kind: 'javascript',
  actionKind: 'javascript',
  label: { en: 'JavaScript', ja: 'JavaScript' },
  connection: javascriptConnectionSchema,
  action: javascriptActionShape,
  secretFields: [],
  form: {
    connection: [
      {
        name: 'timeoutMs',
        type: 'number',
        label: { en: 'Time limit (ms)', ja: '制限時間（ミリ秒）' },
        hint: {
          en: 'Scripts stop at this limit or the run’s own, whichever comes first.',
          ja: 'この制限か実行自体の制限の早いほうでスクリプトを止めます。',
        },
      },
    ],
    action: [
      {
        name: 'code',
        type: 'code',
        language: 'javascript',
        required: true,
        label: { en: 'Script', ja: 'スクリプト' },
        hint: {
          en: 'An async function body: return the result; params.<name> holds each parameter; await actions.run("action-id", { … }) runs another action.',
          ja: 'async 関数の本体です。結果を return します。params.<名前> に各パラメーター、await actions.run("action-id", { … }) で他のアクションを実行します。',
        },
      },
    ],
    authAction: false,
  },
  cloudPermissions: [],
  actionTexts: (action) => javascriptActionTexts(action as JavascriptActionInput),
  validate(action, context) {
    for (const [pointer, text] of javascriptActionTexts(action as JavascriptActionInput)) {
      for (const reference of referencesIn(text)) context.check(reference, pointer);
    }
  },
};
