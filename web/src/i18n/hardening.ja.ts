/** Japanese strings added by the hardening work (see hardening.en.ts). */
export const hardeningJa: Record<string, string> = {
  'problem.bad_request': 'リクエストが正しくありません',
  'problem.unauthorized': 'サインインが必要です',
  'problem.forbidden': '権限がありません',
  'problem.not_found': '見つかりません',
  'problem.method_not_allowed': '許可されていないメソッドです',
  'problem.state_conflict': '現在の状態と矛盾します',
  'problem.payload_too_large': 'リクエストが大きすぎます',
  'problem.unsupported_media_type': '対応していない形式です',
  'problem.argument_invalid': '引数が正しくありません',
  'problem.invalid_definition': '定義が正しくありません',
  'problem.data_source_error': 'データソースがエラーを返しました',
  'problem.execution_timeout': '実行がタイムアウトしました',
  'problem.internal_error': '内部エラーが発生しました',
  'problem.service_unavailable': 'サービスを利用できません',
  'problem.request_timeout': 'リクエストの受信がタイムアウトしました',
  'problem.header_too_large': 'リクエストヘッダーが大きすぎます',
  'problem.too_many_requests': 'リクエストが多すぎます。しばらく待ってください',
  'problem.http_error': 'リクエストに失敗しました',

  'result.statementError': 'このステートメントは失敗しました: {message}',
  'param.notWholeNumber': '{value} は整数ではありません。このパラメータには整数を入力してください。',
  'param.belowMin': '{min} 以上で入力してください。',
  'param.aboveMax': '{max} 以下で入力してください。',

  'scheduling.batch.fileRow': 'ファイルの行',
  'scheduling.batch.argument': '引数',
  'scheduling.batch.argumentColumn': 'この行の引数 {name}',

  'scheduling.form.nameRequired': 'cron ジョブの名前を入力してください。',
  'scheduling.form.actionRequired': 'cron ジョブが実行するアクションを選んでください。',

  'editors.actions.permissionJavascriptAction': '実行を許可する JavaScript アクション',
  'editors.actions.chooseJavascriptAction': 'JavaScript アクションを選択…',
  'editors.actions.noJavascriptActions':
    '「JavaScript アクションからのみ」にはこのプロジェクトの JavaScript アクションが必要ですが、まだありません。',

  'result.csvOfShown': '表示中の行を CSV で保存します（アクションは再実行しません）',
};
