/** MCP クライアントの OAuth サインインで表示する同意画面の日本語。 */
export const mcpOAuthJa: Record<string, string> = {
  'mcpOAuth.title': 'AI アシスタントを接続',
  'mcpOAuth.asks':
    '{client} が Dogu の MCP サーバーを通じてあなた ({email}) として操作する許可を求めています。',
  'mcpOAuth.client': 'クライアント',
  'mcpOAuth.redirectHost': '応答の送信先',
  'mcpOAuth.project': 'プロジェクト',
  'mcpOAuth.environment': '環境',
  'mcpOAuth.explain':
    '許可すると、このクライアントはこの環境であなたが実行できるアクションだけを、あなたとして表示・実行できます。データの変更は引き続きレビュー待ちになります。アクセスはクライアントから取り消すか、管理者が「すべてのセッションからサインアウト」を行うと終了します。',
  'mcpOAuth.allow': '許可',
  'mcpOAuth.deny': '拒否',
  'mcpOAuth.gone':
    'このリクエストは存在しないか、期限切れか、すでに回答済みです。AI アシスタントから接続をやり直してください。',
};
