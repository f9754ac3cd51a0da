/** オブジェクトストレージの結果（docs/object-storage.md）。 */
export const objectsJa: Record<string, string> = {
  'objects.download': '{name} をダウンロード',
  'objects.downloaded': '{name} をダウンロードしました',
  'objects.signedUrl': '署名付き URL',
  'objects.copy': 'URL をコピー',
  'objects.copied': 'URL をコピーしました',
  'objects.copyFailed': 'URL をコピーできませんでした。選択してコピーしてください',
  'objects.open': '開く',
  'objects.expires': '{at} まで有効',
};
