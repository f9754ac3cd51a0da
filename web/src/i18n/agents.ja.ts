/** AI エージェント (MCP) の画面と、実行のきっかけの日本語。 */
export const agentsJa: Record<string, string> = {
  'nav.settings.agents': 'AI エージェント',

  'agents.settings.title': 'AI エージェント (MCP)',
  'agents.settings.intro':
    'アシスタントはユーザーまたはサービスアカウントとして MCP サーバー経由でこのプロジェクトに接続し、そのプリンシパルが実行できるアクションだけを参照します。ここでさらに絞り込めます。',
  'agents.settings.readOnly':
    'エージェントの設定を見ることはできますが、変更はできません。あなたのロール（{roles}）には権限「manage_project」がありません（管理者と開発リーダーが、直接またはユーザーグループを通じて持っています）。',
  'agents.settings.visible': 'エージェントに見せるアクション',
  'agents.settings.visible.all': 'プリンシパルが実行できるすべてのアクション',
  'agents.settings.visible.listed': '下で選んだアクションとアクショングループだけ',
  'agents.settings.chosen': 'エージェント向けに選んだもの',
  'agents.settings.chosenHint': 'ここで選んでも、実行権限のないプリンシパルには表示されません。',
  'agents.settings.actions': 'アクション',
  'agents.settings.groups': 'アクショングループ',
  'agents.settings.noActions': 'このプロジェクトにはまだアクションがありません。',
  'agents.settings.groupSize': '({count} 件のアクション)',
  'agents.settings.changesData': 'データを変更',
  'agents.settings.review': 'データを変更するアクション',
  'agents.settings.changesWithoutReview':
    'データを変更するアクションをレビューなしでエージェントに実行させる',
  'agents.settings.reviewOn':
    'エージェントが呼び出したデータ変更アクションはレビュー依頼になり、人が承認してから実行されます。',
  'agents.settings.reviewOff':
    'エージェントはデータ変更アクションを人の確認なしにすぐ実行します (レビュー必須のアクションは引き続き依頼になります)。',
  'agents.settings.confirmTitle': 'エージェントにレビューなしでのデータ変更を許可しますか?',
  'agents.settings.confirmBody':
    'アシスタントが判断した時点で、誰の承認もなくデータを更新・削除できるようになります。実行はすべてエージェントとプリンシパル付きで記録されます。設定は保存したときに反映されます。',
  'agents.settings.confirm': 'レビューなしを許可',
  'agents.settings.save': '保存',
  'agents.settings.saved': 'エージェントの設定を保存しました。',

  'agents.via.label': '実行のきっかけ',
  'agents.via.client': 'MCP クライアント',
  'agents.via.public_api': 'API',
  'agents.via.console': 'コンソール',
  'agents.via.cron': 'cron ジョブ',
  'agents.via.batch': 'バッチ',
  'agents.via.reservation': '予約',
  'agents.via.review': '承認されたレビュー',
  'agents.via.async_job': '非同期ジョブ',
  'agents.via.view': 'ビュー',
  'agents.via.mcp': 'AI エージェント (MCP)',
  'agents.runBy': '実行者',
  'agents.requestedVia': '依頼のきっかけ',
  'agents.principal.serviceAccount': 'サービスアカウント',
};
