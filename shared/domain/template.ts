/** `{{ reference }}` syntax shared by every template: SQL, URLs, headers, bodies. */
export const referencePattern = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)\s*\}\}/g;

export function referencesIn(template: string): string[] {
  return [...template.matchAll(referencePattern)].map((m) => m[1]!);
}
