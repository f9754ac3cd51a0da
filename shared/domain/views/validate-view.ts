/**
 * Save-time checks of a view beyond its schema: ids unique, every reference to a query, action,
 * parameter, view or group resolvable, every expression parseable and naming queries and
 * components the view has (check-expressions.ts), and the limits (depth, count, size). Every
 * problem names its field by a JSON Pointer and reads in English and Japanese. Components form a JSON tree, so
 * the only unbounded growth is depth and count; event chains are bounded by `maxEventDepth`.
 */
import type { ActionInput } from '../definitions/action.ts';
import {
  type ViewComponent,
  type ViewEvent,
  type ViewInput,
  type VisualViewDefinition,
  viewLimits,
} from '../definitions/view.ts';
import { DoguError } from '../errors.ts';
import { checkViewExpressions } from './check-expressions.ts';
import type { ViewProblem } from './view-problem.ts';

export type { ViewProblem } from './view-problem.ts';

const problem = (pointer: string, en: string, ja: string): ViewProblem => ({ pointer, detail: en, ja });

/** What the project holds that a view may name. */
export interface ViewReferenceContext {
  actions: ReadonlyMap<string, Pick<ActionInput, 'id' | 'parameters'>>;
  viewIds: ReadonlySet<string>;
  groupIds: ReadonlySet<string>;
}

interface ActionReference {
  pointer: string;
  actionId: string;
  /** Argument names given, to be checked against the action's parameters. */
  argumentNames?: string[];
  paging?: { limitParameter: string; offsetParameter: string };
}

const utf8Bytes = (text: string) => Buffer.byteLength(text, 'utf8');

/** Every problem of the view, structural and referential; empty when it may be saved. */
export function checkView(input: ViewInput, context: ViewReferenceContext): ViewProblem[] {
  const problems: ViewProblem[] = [];
  const actionRefs: ActionReference[] = [];
  const viewRefs: { pointer: string; viewId: string }[] = [];
  const definition = input.definition;
  const definitionBytes = utf8Bytes(JSON.stringify(definition));
  if (definitionBytes > viewLimits.maxDefinitionBytes) {
    problems.push(
      problem(
        '#/definition',
        `is ${definitionBytes} bytes as JSON; at most ${viewLimits.maxDefinitionBytes} are allowed`,
        `JSON で ${definitionBytes} バイトあります。上限は ${viewLimits.maxDefinitionBytes} バイトです`,
      ),
    );
  }
  checkUnique(
    definition.parameters.map((p) => p.name),
    (index) => `#/definition/parameters/${index}/name`,
    'parameter',
    'パラメータ',
    problems,
  );
  if (definition.kind === 'code') {
    const sourceBytes = utf8Bytes(definition.source);
    if (sourceBytes > viewLimits.maxSourceBytes) {
      problems.push(
        problem(
          '#/definition/source',
          `is ${sourceBytes} bytes; at most ${viewLimits.maxSourceBytes} are allowed`,
          `${sourceBytes} バイトあります。上限は ${viewLimits.maxSourceBytes} バイトです`,
        ),
      );
    }
    checkUnique(
      definition.actionIds,
      (index) => `#/definition/actionIds/${index}`,
      'action',
      'アクション',
      problems,
    );
    definition.actionIds.forEach((actionId, index) => {
      actionRefs.push({ pointer: `#/definition/actionIds/${index}`, actionId });
    });
  } else {
    checkVisual(definition, problems, actionRefs, viewRefs);
  }
  if (input.groupId && !context.groupIds.has(input.groupId)) {
    problems.push(
      problem(
        '#/groupId',
        `no action group '${input.groupId}' in this project`,
        `このプロジェクトにアクショングループ '${input.groupId}' はありません`,
      ),
    );
  }
  for (const ref of actionRefs) problems.push(...checkActionReference(ref, context));
  for (const ref of viewRefs) {
    if (ref.viewId !== input.id && !context.viewIds.has(ref.viewId)) {
      problems.push(
        problem(
          ref.pointer,
          `no view '${ref.viewId}' in this project`,
          `このプロジェクトにビュー '${ref.viewId}' はありません`,
        ),
      );
    }
  }
  return problems;
}

/** Throws 422 `invalid_definition` naming every problem, or returns when there is none. */
export function assertViewValid(input: ViewInput, context: ViewReferenceContext): void {
  const problems = checkView(input, context);
  if (problems.length === 0) return;
  throw invalidView(problems);
}

export const invalidView = (problems: ViewProblem[]) =>
  new DoguError(
    'invalid_definition',
    problems.length === 1
      ? `${problems[0]!.pointer}: ${problems[0]!.detail}`
      : `${problems.length} problems in the view: ${problems.map((p) => p.pointer).join(', ')}.`,
    { errors: problems },
  );

function checkActionReference(ref: ActionReference, context: ViewReferenceContext): ViewProblem[] {
  const action = context.actions.get(ref.actionId);
  const field = ref.pointer;
  if (!action) {
    return [
      problem(
        field,
        `no action '${ref.actionId}' in this project`,
        `このプロジェクトにアクション '${ref.actionId}' はありません`,
      ),
    ];
  }
  const names = new Set(action.parameters.map((p) => p.name));
  const out: ViewProblem[] = [];
  const base = field.replace(/\/(actionId|fromAction)$/, '');
  for (const name of ref.argumentNames ?? []) {
    if (!names.has(name)) {
      out.push(
        problem(
          `${base}/arguments/${name}`,
          `action '${action.id}' has no parameter '${name}'`,
          `アクション '${action.id}' にパラメータ '${name}' はありません`,
        ),
      );
    }
  }
  if (ref.paging) {
    for (const key of ['limitParameter', 'offsetParameter'] as const) {
      const name = ref.paging[key];
      if (!names.has(name)) {
        out.push(
          problem(
            `${base}/paging/${key}`,
            `action '${action.id}' has no parameter '${name}'`,
            `アクション '${action.id}' にパラメータ '${name}' はありません`,
          ),
        );
      }
    }
  }
  return out;
}

function checkUnique(
  ids: readonly string[],
  pointerOf: (index: number) => string,
  what: string,
  whatJa: string,
  problems: ViewProblem[],
): void {
  const seen = new Set<string>();
  ids.forEach((id, index) => {
    if (seen.has(id)) {
      problems.push(
        problem(pointerOf(index), `names ${what} '${id}' twice`, `${whatJa} '${id}' が重複しています`),
      );
    }
    seen.add(id);
  });
}

function checkVisual(
  definition: VisualViewDefinition,
  problems: ViewProblem[],
  actionRefs: ActionReference[],
  viewRefs: { pointer: string; viewId: string }[],
): void {
  const queryIds = new Set(definition.queries.map((q) => q.id));
  checkUnique(
    definition.queries.map((q) => q.id),
    (index) => `#/definition/queries/${index}/id`,
    'query',
    'クエリ',
    problems,
  );
  definition.queries.forEach((query, index) => {
    const pointer = `#/definition/queries/${index}`;
    actionRefs.push({
      pointer: `${pointer}/actionId`,
      actionId: query.actionId,
      argumentNames: Object.keys(query.arguments ?? {}),
      ...(query.paging ? { paging: query.paging } : {}),
    });
    if (query.paging && query.paging.limitParameter === query.paging.offsetParameter) {
      problems.push(
        problem(
          `${pointer}/paging/offsetParameter`,
          'must differ from limitParameter',
          'limitParameter と異なる必要があります',
        ),
      );
    }
  });

  const componentIds = new Set<string>();
  /** Checked once every component is known: an event may open a modal further down the layout. */
  const modalIds = new Set<string>();
  const modalRefs: { pointer: string; id: string }[] = [];
  let count = 0;
  const queryReference = (pointer: string, queryId: string) => {
    if (!queryIds.has(queryId)) {
      problems.push(
        problem(
          pointer,
          `no query '${queryId}' in this view`,
          `このビューにクエリ '${queryId}' はありません`,
        ),
      );
    }
  };

  const checkEvents = (events: readonly ViewEvent[] | undefined, pointer: string, depth: number) => {
    (events ?? []).forEach((event, index) => {
      const at = `${pointer}/${index}`;
      if (depth > viewLimits.maxEventDepth) {
        problems.push(
          problem(
            at,
            `events nest deeper than ${viewLimits.maxEventDepth} levels of onSuccess`,
            `イベントの onSuccess の入れ子が ${viewLimits.maxEventDepth} 段を超えています`,
          ),
        );
        return;
      }
      switch (event.type) {
        case 'runQuery':
          queryReference(`${at}/query`, event.query);
          break;
        case 'refresh':
          for (const [i, q] of (event.queries ?? []).entries()) queryReference(`${at}/queries/${i}`, q);
          break;
        case 'runAction':
          actionRefs.push({
            pointer: `${at}/actionId`,
            actionId: event.actionId,
            argumentNames: Object.keys(event.arguments ?? {}),
          });
          checkEvents(event.onSuccess, `${at}/onSuccess`, depth + 1);
          break;
        case 'openModal':
        case 'closeModal':
          modalRefs.push({ pointer: `${at}/modal`, id: event.modal });
          break;
        case 'navigate':
          if ('view' in event.to) viewRefs.push({ pointer: `${at}/to/view`, viewId: event.to.view });
          if ('action' in event.to) {
            actionRefs.push({
              pointer: `${at}/to/action`,
              actionId: event.to.action,
              argumentNames: Object.keys(event.arguments ?? {}),
            });
          }
          break;
      }
    });
  };

  const visit = (component: ViewComponent, pointer: string, depth: number) => {
    count++;
    if (depth > viewLimits.maxDepth) {
      problems.push(
        problem(
          pointer,
          `components nest deeper than ${viewLimits.maxDepth} levels`,
          `コンポーネントの入れ子が ${viewLimits.maxDepth} 段を超えています`,
        ),
      );
      return;
    }
    if (count === viewLimits.maxComponents + 1) {
      problems.push(
        problem(
          pointer,
          `the layout has more than ${viewLimits.maxComponents} components`,
          `レイアウトのコンポーネントが ${viewLimits.maxComponents} 個を超えています`,
        ),
      );
    }
    if (componentIds.has(component.id)) {
      problems.push(
        problem(
          `${pointer}/id`,
          `names component '${component.id}' twice`,
          `コンポーネント '${component.id}' が重複しています`,
        ),
      );
    }
    componentIds.add(component.id);
    switch (component.type) {
      case 'table':
      case 'detail':
      case 'chart':
        if (component.query !== undefined && component.value !== undefined) {
          problems.push(
            problem(
              `${pointer}/value`,
              'give either query or value, not both',
              'query と value のどちらか一方だけを指定してください',
            ),
          );
        } else if (component.query === undefined && component.value === undefined) {
          problems.push(problem(`${pointer}/query`, 'needs a query or a value', 'query か value が必要です'));
        }
        if (component.query !== undefined) queryReference(`${pointer}/query`, component.query);
        if (component.type === 'table') {
          for (const [i, column] of (component.columns ?? []).entries()) {
            if (!column.edit) continue;
            actionRefs.push({
              pointer: `${pointer}/columns/${i}/edit/actionId`,
              actionId: column.edit.actionId,
              argumentNames: Object.keys(column.edit.arguments),
            });
            if ((column.edit.inputType === 'select') !== (column.edit.options !== undefined)) {
              problems.push(
                problem(
                  `${pointer}/columns/${i}/edit/options`,
                  'a select cell needs options, and only a select cell has them',
                  '選択のセルには options が必要で、選択以外のセルには指定できません',
                ),
              );
            }
          }
          checkEvents(component.rowClick, `${pointer}/rowClick`, 0);
          for (const [i, item] of (component.rowMenu ?? []).entries()) {
            checkEvents(item.events, `${pointer}/rowMenu/${i}/events`, 0);
          }
        }
        if (component.type === 'chart') {
          checkUnique(component.y, (i) => `${pointer}/y/${i}`, 'y field', 'y フィールド', problems);
          checkEvents(component.pointClick, `${pointer}/pointClick`, 0);
        }
        break;
      case 'form':
        if ((component.fromAction === undefined) === (component.fields === undefined)) {
          problems.push(
            problem(
              `${pointer}/fields`,
              'give either fromAction or fields',
              'fromAction か fields のどちらか一方を指定してください',
            ),
          );
        }
        if (component.fromAction !== undefined) {
          actionRefs.push({ pointer: `${pointer}/fromAction`, actionId: component.fromAction });
        }
        if (component.fields) {
          checkUnique(
            component.fields.map((f) => f.name),
            (i) => `${pointer}/fields/${i}/name`,
            'field',
            'フィールド',
            problems,
          );
        }
        checkEvents(component.submit, `${pointer}/submit`, 0);
        break;
      case 'button':
        checkEvents(component.events, `${pointer}/events`, 0);
        break;
      case 'tabs':
        for (const [t, tab] of component.tabs.entries()) {
          for (const [c, child] of tab.children.entries()) {
            visit(child, `${pointer}/tabs/${t}/children/${c}`, depth + 1);
          }
        }
        break;
      case 'grid':
      case 'modal':
        if (component.type === 'modal') modalIds.add(component.id);
        for (const [c, child] of component.children.entries())
          visit(child, `${pointer}/children/${c}`, depth + 1);
        break;
      case 'input': {
        const choices = component.inputType === 'select' || component.inputType === 'multiselect';
        const given = component.options !== undefined || component.optionsQuery !== undefined;
        if (choices && (component.options !== undefined) === (component.optionsQuery !== undefined)) {
          problems.push(
            problem(
              `${pointer}/options`,
              'a select needs either options or optionsQuery',
              '選択肢には options か optionsQuery のどちらか一方が必要です',
            ),
          );
        } else if (!choices && given) {
          problems.push(
            problem(
              `${pointer}/options`,
              `a ${component.inputType} input has no options`,
              `${component.inputType} の入力に選択肢は指定できません`,
            ),
          );
        }
        if (component.optionsQuery !== undefined)
          queryReference(`${pointer}/optionsQuery`, component.optionsQuery);
        checkEvents(component.onChange, `${pointer}/onChange`, 0);
        break;
      }
      default:
        break;
    }
  };
  visit(definition.layout, '#/definition/layout', 1);
  for (const [t, timer] of (definition.timers ?? []).entries()) {
    for (const [i, q] of timer.queries.entries()) queryReference(`#/definition/timers/${t}/queries/${i}`, q);
  }
  for (const ref of modalRefs) {
    if (!modalIds.has(ref.id)) {
      problems.push(
        problem(
          ref.pointer,
          `no modal '${ref.id}' in this view`,
          `このビューにモーダル '${ref.id}' はありません`,
        ),
      );
    }
  }
  problems.push(...checkViewExpressions(definition));
}
