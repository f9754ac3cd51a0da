/** 設定 → 環境（どの環境を保護するか）の日本語。 */
export const environmentsJa: Record<string, string> = {
  'nav.settings.environments': '環境',
  'environments.title': '環境',
  'environments.intro':
    '保護された環境では、アクションとビューのうち公開されたバージョンだけが実行・表示されます。保存しただけの変更が知らないうちに届くことはありません。保護されていない環境では、公開されたバージョン（なければ最新）が実行されます。',
  'environments.readOnly':
    '環境を見ることはできますが、変更はできません。あなたのロール（{roles}）には権限「manage_project」がありません（管理者と開発リーダーが、直接またはユーザーグループを通じて持っています）。',
  'environments.name': '名前',
  'environments.id': 'ID',
  'environments.protection': '保護',
  'environments.protected': '保護あり',
  'environments.protectedMeans': '公開されたバージョンだけが実行・表示されます。',
  'environments.unprotected': '保護なし',
  'environments.unprotectedMeans': '何も公開されていなければ最新のバージョンが実行されます。',
  'environments.protect': '保護する',
  'environments.unprotect': '保護をやめる',
  'environments.nowProtected': '{name} を保護しました。公開されたバージョンだけが実行されます。',
  'environments.nowUnprotected': '{name} の保護をやめました。',
  'environments.confirmUnprotect': '{name} の保護をやめますか？',
  'environments.confirmUnprotectDetail':
    '{name} に何も公開されていないアクションとビューは、誰も公開しないまま、最後に保存されたバージョンがすぐにそこで実行・表示されるようになります。公開済みのバージョンはそのまま実行されます。',
  'environments.none': 'このプロジェクトには環境がありません。',
};
