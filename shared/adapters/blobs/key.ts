/** Blob keys are slash-separated ids; anything else (.., empty segments, odd characters) is refused. */
const segment = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,199}$/;

export function checkBlobKey(key: string): string {
  const parts = key.split('/');
  if (parts.length === 0 || !parts.every((p) => segment.test(p) && p !== '..' && p !== '.')) {
    throw new Error(`Not a blob key: ${JSON.stringify(key)}`);
  }
  return key;
}
