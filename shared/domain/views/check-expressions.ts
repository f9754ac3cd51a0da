/**
 * The expressions of a visual view, checked when it is saved (and by `dogu apply --dry-run`):
 * each expression and `{{ }}` template parses with the console's own parser (a problem names line
 * and column in the field's text), and every `queries.<id>` / `components.<id>` they spell out
 * names a query or component of the view. What depends on data — a row's fields, a value not
 * there yet, an id computed at run time — is left to the renderer, which shows it in place.
 */
import type { ViewComponent, ViewEvent, VisualViewDefinition } from '../definitions/view.ts';
import {
  type ExpressionFieldKind,
  ExpressionSyntaxError,
  type LocalReference,
  localReferences,
  parseField,
} from './expression-syntax.ts';
import type { ViewProblem } from './view-problem.ts';

/** One field holding expressions: where it is (a JSON Pointer), its text and how it is read. */
export interface ExpressionField {
  pointer: string;
  text: string;
  kind: ExpressionFieldKind;
}

/** Every problem of the view's expressions; empty when they all parse and name what exists. */
export function checkViewExpressions(definition: VisualViewDefinition): ViewProblem[] {
  const known = {
    queries: new Set(definition.queries.map((q) => q.id)),
    components: new Set<string>(),
  };
  const fields = expressionFields(definition, (component) => known.components.add(component.id));
  return fields.flatMap((field) => checkExpressionField(field, known));
}

/**
 * The fields of a visual definition that the console evaluates, in document order (the modes
 * follow web/src/screens/views/runtime: `bindValue` for bindings, `templateText` for texts).
 * Tables' and details' `field`s are paths into rows and labels are plain text: neither is here.
 */
export function expressionFields(
  definition: VisualViewDefinition,
  onComponent: (component: ViewComponent) => void = () => {},
): ExpressionField[] {
  const out: ExpressionField[] = [];
  const add = (pointer: string, text: string | undefined, kind: ExpressionFieldKind) => {
    if (text !== undefined) out.push({ pointer, text, kind });
  };
  const addArguments = (pointer: string, args: Record<string, string> | undefined) => {
    for (const [name, text] of Object.entries(args ?? {}))
      add(`${pointer}/${escapePointer(name)}`, text, 'binding');
  };
  for (const [name, text] of Object.entries(definition.state ?? {})) {
    add(`#/definition/state/${escapePointer(name)}`, text, 'binding');
  }
  definition.queries.forEach((query, index) => {
    addArguments(`#/definition/queries/${index}/arguments`, query.arguments);
    add(`#/definition/queries/${index}/transformer`, query.transformer, 'expression');
    add(`#/definition/queries/${index}/paging/totalCount`, query.paging?.totalCount, 'binding');
  });

  const events = (list: readonly ViewEvent[] | undefined, pointer: string) => {
    for (const [index, event] of (list ?? []).entries()) {
      const at = `${pointer}/${index}`;
      if (event.type === 'runAction') {
        addArguments(`${at}/arguments`, event.arguments);
        add(`${at}/confirm`, event.confirm, 'template');
        events(event.onSuccess, `${at}/onSuccess`);
      } else if (event.type === 'navigate') {
        if ('url' in event.to) add(`${at}/to/url`, event.to.url, 'binding');
        addArguments(`${at}/arguments`, event.arguments);
      } else if (event.type === 'setState') {
        add(`${at}/value`, event.value, 'binding');
      } else if (event.type === 'toast') {
        add(`${at}/message`, event.message, 'template');
      }
    }
  };

  const visit = (component: ViewComponent, pointer: string) => {
    onComponent(component);
    add(`${pointer}/title`, component.title, 'template');
    add(`${pointer}/hidden`, component.hidden, 'binding');
    switch (component.type) {
      case 'table':
        add(`${pointer}/value`, component.value, 'binding');
        for (const [i, column] of (component.columns ?? []).entries()) {
          addArguments(`${pointer}/columns/${i}/edit/arguments`, column.edit?.arguments);
        }
        events(component.rowClick, `${pointer}/rowClick`);
        for (const [i, item] of (component.rowMenu ?? []).entries()) {
          events(item.events, `${pointer}/rowMenu/${i}/events`);
        }
        break;
      case 'detail':
        add(`${pointer}/value`, component.value, 'binding');
        break;
      case 'chart':
        add(`${pointer}/value`, component.value, 'binding');
        events(component.pointClick, `${pointer}/pointClick`);
        break;
      case 'form':
        for (const [i, field] of (component.fields ?? []).entries()) {
          add(`${pointer}/fields/${i}/default`, field.default, 'binding');
        }
        events(component.submit, `${pointer}/submit`);
        break;
      case 'button':
        add(`${pointer}/label`, component.label, 'template');
        events(component.events, `${pointer}/events`);
        break;
      case 'text':
      case 'markdown':
        add(`${pointer}/content`, component.content, 'template');
        break;
      case 'media':
        add(`${pointer}/url`, component.url, 'binding');
        break;
      case 'tabs':
        for (const [t, tab] of component.tabs.entries()) {
          for (const [c, child] of tab.children.entries()) visit(child, `${pointer}/tabs/${t}/children/${c}`);
        }
        break;
      case 'grid':
      case 'modal':
        for (const [c, child] of component.children.entries()) visit(child, `${pointer}/children/${c}`);
        break;
      case 'input':
        add(`${pointer}/default`, component.default, 'binding');
        events(component.onChange, `${pointer}/onChange`);
        break;
    }
  };
  visit(definition.layout, '#/definition/layout');
  return out;
}

/** A field's expressions parse, and the query and component ids they spell out exist. */
export function checkExpressionField(
  { pointer, text, kind }: ExpressionField,
  known: Record<LocalReference['scope'], ReadonlySet<string>>,
): ViewProblem[] {
  let parsed: ReturnType<typeof parseField>;
  try {
    parsed = parseField(text, kind);
  } catch (error) {
    if (error instanceof RangeError) {
      // Whatever the depth check missed: the stack ran out, which is still the author's input.
      return [{ pointer, detail: 'the expression nests too deeply', ja: '式の入れ子が深すぎます' }];
    }
    if (!(error instanceof ExpressionSyntaxError)) throw error;
    const { line, column } = lineAndColumn(text, error.index);
    return [
      {
        pointer,
        detail: `syntax error in the expression at line ${line}, column ${column}: ${error.description}`,
        ja: `式の ${line} 行 ${column} 列で構文エラー: ${error.ja ?? error.description}`,
        line,
        column,
      },
    ];
  }
  const out: ViewProblem[] = [];
  const reported = new Set<string>();
  for (const { node } of parsed) {
    let references: LocalReference[];
    try {
      references = localReferences(node);
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
      return [{ pointer, detail: 'the expression nests too deeply', ja: '式の入れ子が深すぎます' }];
    }
    for (const ref of references) {
      const key = `${ref.scope}.${ref.id}`;
      if (known[ref.scope].has(ref.id) || reported.has(key)) continue;
      reported.add(key);
      out.push(
        ref.scope === 'queries'
          ? {
              pointer,
              detail: `uses ${key}, but this view has no query '${ref.id}'`,
              ja: `${key} を使っていますが、このビューにクエリ '${ref.id}' はありません`,
            }
          : {
              pointer,
              detail: `uses ${key}, but this view has no component '${ref.id}'`,
              ja: `${key} を使っていますが、このビューにコンポーネント '${ref.id}' はありません`,
            },
      );
    }
  }
  return out;
}

/** 1-based line and column of a 0-based offset (columns count UTF-16 units, as editors do). */
export function lineAndColumn(text: string, index: number): { line: number; column: number } {
  const before = text.slice(0, index).split('\n');
  return { line: before.length, column: before.at(-1)!.length + 1 };
}

const escapePointer = (segment: string) => segment.replaceAll('~', '~0').replaceAll('/', '~1');
