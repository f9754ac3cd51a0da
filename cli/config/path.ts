/** Paths into the config file, written the way people read them: `actions[2].parameters[0].kind`. */
export type PathSegment = string | number;
export type Path = readonly PathSegment[];

const plainKey = /^[A-Za-z_$][A-Za-z0-9_$-]*$/;

export function formatPath(path: Path): string {
  let text = '';
  for (const segment of path) {
    if (typeof segment === 'number') text += `[${segment}]`;
    else if (plainKey.test(segment)) text += text === '' ? segment : `.${segment}`;
    else text += `[${JSON.stringify(segment)}]`;
  }
  return text;
}

/** `#/statements/0/sql` (a JSON Pointer from the API's field errors) as path segments. */
export function pathOfPointer(pointer: string): Path {
  return pointer
    .replace(/^#?\/?/, '')
    .split('/')
    .filter((segment) => segment !== '')
    .map((segment) => segment.replaceAll('~1', '/').replaceAll('~0', '~'))
    .map((segment) => (/^(0|[1-9][0-9]*)$/.test(segment) ? Number(segment) : segment));
}
