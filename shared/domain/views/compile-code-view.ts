/**
 * A code view's JSX/TSX becomes a plain ES module when it is saved (decision 0044), so the
 * browser sandbox runs it without a compiler. Sucrase (pure JavaScript) does the transform: it
 * runs in Lambda as well as in the embedded runtime, where esbuild's native binary could not be
 * bundled. Only syntax is transformed; types are not checked. The module may import `react`,
 * `react/jsx-runtime` and `dogu` (the SDK the sandbox provides); anything else is refused here,
 * for a clear message at save (the sandbox could not load it anyway).
 */
import { transform } from 'sucrase';
import type { CompiledViewSource } from '../definitions/view.ts';
import type { ViewProblem } from './validate-view.ts';

export const codeViewImports = ['react', 'react/jsx-runtime', 'dogu'] as const;
const compiler = 'sucrase 3.35.1 (typescript, jsx automatic)';
const pointer = '#/definition/source';

export type CompileOutcome = { ok: true; compiled: CompiledViewSource } | { ok: false; problem: ViewProblem };

export function compileCodeView(source: string): CompileOutcome {
  let code: string;
  try {
    code = transform(source, {
      transforms: ['typescript', 'jsx'],
      jsxRuntime: 'automatic',
      production: true,
      filePath: 'view.tsx',
      disableESTransforms: true,
    }).code;
  } catch (error) {
    const loc = (error as { loc?: { line: number; column: number } }).loc;
    const message = String((error as Error).message ?? error).replace(/\s*\(\d+:\d+\)$/, '');
    const where = loc ? ` at line ${loc.line}, column ${loc.column}` : '';
    const whereJa = loc ? `${loc.line} 行 ${loc.column} 列で` : '';
    return {
      ok: false,
      problem: {
        pointer,
        detail: `syntax error${where}: ${message}`,
        ja: `${whereJa}構文エラー: ${message}`,
        ...(loc ? { line: loc.line, column: loc.column } : {}),
      },
    };
  }
  const refused = importedModules(code).filter(
    (specifier) => !(codeViewImports as readonly string[]).includes(specifier),
  );
  if (refused.length > 0) {
    return {
      ok: false,
      problem: {
        pointer,
        detail: `imports ${refused.map((s) => `'${s}'`).join(', ')}; a code view may import only ${codeViewImports.join(', ')}`,
        ja: `${refused.map((s) => `'${s}'`).join(', ')} を import しています。コードビューが import できるのは ${codeViewImports.join(', ')} だけです`,
      },
    };
  }
  if (!/\bexport\s+default\b/.test(code)) {
    return {
      ok: false,
      problem: {
        pointer,
        detail: 'has no default export: export the view component with `export default`',
        ja: 'default export がありません。ビューのコンポーネントを `export default` してください',
      },
    };
  }
  return { ok: true, compiled: { code, compiler } };
}

/** Module specifiers of static imports, re-exports and dynamic imports with a literal. */
function importedModules(code: string): string[] {
  const found = new Set<string>();
  const patterns = [
    /\bimport\s+(?:[\w*${}\s,]+?\s+from\s+)?["']([^"']+)["']/g,
    /\bexport\s+(?:\*|\{[^}]*\})\s*from\s*["']([^"']+)["']/g,
    /\bimport\s*\(\s*["']([^"']+)["']\s*\)/g,
  ];
  for (const pattern of patterns) for (const match of code.matchAll(pattern)) found.add(match[1]!);
  return [...found];
}
