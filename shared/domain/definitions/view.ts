/**
 * Views (issue #18, spec 1 "called from a view"): screens built from actions, stored and
 * versioned like actions (a head plus immutable versions, one published version per environment).
 *
 * Shape (agreed between the backend and the console; docs/views.md "Definition reference"):
 *
 *   View        { id, name, description?, groupId?, permission?, definition }
 *   definition  = { kind: "visual", parameters, queries, layout }          // built in the builder
 *               | { kind: "code",   parameters, source, actionIds }        // a React component
 *   Query       { id, actionId, arguments: { [parameter]: Expr }, runOn: "load" | "manual",
 *                 transformer?: Expr, paging?: { limitParameter, offsetParameter, pageSize, totalCount?: Expr } }
 *   Component   { id, type, ...props } — table, detail, form, button, text, markdown, media, tabs, grid, chart, modal, input
 *   Event       runQuery | runAction (onSuccess?) | refresh | navigate | toast | setState | openModal | closeModal
 *   Expr        a string holding a JavaScript-like expression, evaluated by the console WITHOUT eval
 *               over { panel: { args }, row, user, components: { <id>: { value } },
 *               queries: { <id>: { rows, result } } }. Where a text is expected (`content`, labels)
 *               the string is a template: literal text with `{{ expr }}` holes.
 *
 * The view grants nothing: every action it calls runs through the ordinary execution endpoint as
 * the viewer (permissions and reviews apply). `permission` only decides who may see the view.
 * References (action ids, query ids, view ids, component ids) are checked when the view is saved
 * (shared/domain/validate-view.ts), so a saved view never names what does not exist.
 */
import * as z from 'zod';
import { permissionSchema } from './action.ts';
import { resourceIdSchema } from './data-source.ts';
import { nameSchema, parameterSchema } from './parameter.ts';

/** Limits checked when a view is saved (docs/views.md "Limits"). */
export const viewLimits = {
  /** Nesting of components (tabs and grids in tabs and grids …), the root counting as 1. */
  maxDepth: 20,
  /** Every component in a layout, nested ones included. */
  maxComponents: 500,
  maxQueries: 50,
  /** Events nested through `onSuccess`. */
  maxEventDepth: 5,
  /** A code view's source text, in UTF-8 bytes. */
  maxSourceBytes: 128 * 1024,
  /** The whole definition as JSON, in UTF-8 bytes. */
  maxDefinitionBytes: 192 * 1024,
  maxExpressionLength: 4000,
} as const;

/** An expression, or a `{{ expr }}` template where text is expected. Parsed by the console, never eval'd. */
export const expressionSchema = z.string().max(viewLimits.maxExpressionLength).meta({
  id: 'ViewExpression',
  description: 'An expression (or a {{ expr }} template where text is expected)',
});

/** Query and component ids: they appear in expressions as `queries.<id>` and `components.<id>`. */
export const viewLocalIdSchema = nameSchema;

/** Argument expressions by parameter name. */
const argumentsSchema = z.record(nameSchema, expressionSchema);

// --- Events -------------------------------------------------------------------------------------

export type ViewNavigationTarget = { view: string } | { action: string } | { url: string };

export type ViewEvent =
  /** Runs a query of this view (again). */
  | { type: 'runQuery'; query: string }
  /** Runs an action as the viewer, with arguments from expressions; `onSuccess` runs after it succeeded (not `then`: an object with `then` is a thenable to `await`). */
  | {
      type: 'runAction';
      actionId: string;
      arguments?: Record<string, string>;
      /** A question (a template) the viewer answers before the action runs; the run is then sent confirmed. */
      confirm?: string;
      onSuccess?: ViewEvent[];
    }
  /** Runs the named queries again (all `load` queries when omitted). */
  | { type: 'refresh'; queries?: string[] }
  /** Opens another view or action (with arguments), or a URL (an expression). */
  | { type: 'navigate'; to: ViewNavigationTarget; arguments?: Record<string, string> }
  /** Opens or closes a modal or drawer component of this view. */
  /** Sets the view state variable `state.<name>` to the value of an expression. */
  | { type: 'setState'; name: string; value: string }
  | { type: 'openModal'; modal: string }
  | { type: 'closeModal'; modal: string }
  /** Shows a short message (a template) in the console's polite live region. */
  | { type: 'toast'; message: string; kind?: 'success' | 'info' | 'error' };

const navigationTargetSchema = z.union([
  z.strictObject({ view: resourceIdSchema }),
  z.strictObject({ action: resourceIdSchema }),
  z.strictObject({ url: expressionSchema }),
]);

export const viewEventSchema: z.ZodType<ViewEvent> = z
  .lazy(() =>
    z.discriminatedUnion('type', [
      z.strictObject({ type: z.literal('runQuery'), query: viewLocalIdSchema }),
      z.strictObject({
        type: z.literal('runAction'),
        actionId: resourceIdSchema,
        arguments: argumentsSchema.optional(),
        confirm: z.string().min(1).max(1000).optional(),
        onSuccess: z.array(viewEventSchema).max(20).optional(),
      }),
      z.strictObject({ type: z.literal('refresh'), queries: z.array(viewLocalIdSchema).max(50).optional() }),
      z.strictObject({
        type: z.literal('navigate'),
        to: navigationTargetSchema,
        arguments: argumentsSchema.optional(),
      }),
      z.strictObject({ type: z.literal('setState'), name: nameSchema, value: expressionSchema }),
      z.strictObject({ type: z.literal('openModal'), modal: viewLocalIdSchema }),
      z.strictObject({ type: z.literal('closeModal'), modal: viewLocalIdSchema }),
      z.strictObject({
        type: z.literal('toast'),
        message: z.string().min(1).max(1000),
        kind: z.enum(['success', 'info', 'error']).optional(),
      }),
    ]),
  )
  .meta({ id: 'ViewEvent', description: 'What a button, row click, row menu or form submit does' });
const eventsSchema = z.array(viewEventSchema).max(20);

// --- Components ---------------------------------------------------------------------------------

/** How a column or field value is shown; `auto` (default) follows the result's column type and media. */
export const viewValueFormats = [
  'auto',
  'text',
  'number',
  'date',
  'datetime',
  'boolean',
  'json',
  'media',
] as const;
const fieldDisplaySchema = z.strictObject({
  /** A column of the rows (or a dot path into each row). */
  field: z.string().min(1).max(200),
  label: z.string().max(200).optional(),
  format: z.enum(viewValueFormats).optional(),
});

/** The kinds of input an editable table cell offers (decision 0220). */
export const viewCellEditInputs = ['text', 'number', 'select'] as const;

/**
 * An editable column (issue 29, decision 0220): editing a cell runs `actionId` with `arguments`,
 * expressions over `row` (the row as shown) and `value` (the new value); the table's query runs
 * again (the same page) once it succeeded.
 */
export interface ViewCellEdit {
  actionId: string;
  arguments: Record<string, string>;
  inputType?: (typeof viewCellEditInputs)[number];
  /** A select's choices. */
  options?: { value: string | number | boolean; label: string }[];
}
export type ViewTableColumn = {
  field: string;
  label?: string;
  format?: (typeof viewValueFormats)[number];
  edit?: ViewCellEdit;
};

const optionsSchema = z
  .array(
    z.strictObject({
      value: z.union([z.string(), z.number(), z.boolean()]),
      label: z.string().min(1).max(200),
    }),
  )
  .max(500);

const tableColumnSchema = fieldDisplaySchema.extend({
  edit: z
    .strictObject({
      actionId: resourceIdSchema,
      arguments: argumentsSchema,
      inputType: z.enum(viewCellEditInputs).optional(),
      options: optionsSchema.optional(),
    })
    .optional(),
});

/** Chart kinds (Chart.js; decision 0210). `area` is a filled line. */
export const viewChartKinds = ['bar', 'line', 'area', 'pie', 'scatter'] as const;

export const viewFormFieldTypes = [
  'text',
  'multiline',
  'number',
  'boolean',
  'date',
  'json',
  'select',
] as const;

type Common = { id: string; title?: string; hidden?: string };
export type ViewComponent = Common &
  (
    | {
        type: 'table';
        /** Rows from a query of the view … */
        query?: string;
        /** … or from an expression yielding an array of objects. */
        value?: string;
        columns?: ViewTableColumn[];
        sortable?: boolean;
        filterable?: boolean;
        /** Rows per page shown (client-side); a query with `paging` pages on the server instead. */
        pageSize?: number;
        /** Checkboxes on the rows: the checked rows are `components.<id>.selectedRows`. */
        multiSelect?: boolean;
        /** A button that downloads the shown rows (filtered and sorted) as CSV. */
        csvExport?: boolean;
        rowClick?: ViewEvent[];
        rowMenu?: { label: string; events: ViewEvent[] }[];
      }
    | {
        type: 'detail';
        query?: string;
        value?: string;
        fields?: { field: string; label?: string; format?: (typeof viewValueFormats)[number] }[];
      }
    | {
        type: 'form';
        /** The form's fields are that action's parameters … */
        fromAction?: string;
        /** … or these. */
        fields?: {
          name: string;
          type: (typeof viewFormFieldTypes)[number];
          label?: string;
          required?: boolean;
          default?: string;
          options?: { value: string | number | boolean; label: string }[];
        }[];
        submitLabel?: string;
        /** The values are `components.<id>.value` (an object by field name) in these events. */
        submit: ViewEvent[];
      }
    | { type: 'button'; label: string; events: ViewEvent[]; variant?: 'primary' | 'secondary' | 'danger' }
    | { type: 'text'; content: string }
    | { type: 'markdown'; content: string }
    | { type: 'media'; url: string; kind?: 'image' | 'video' | 'audio' }
    | { type: 'tabs'; tabs: { label: string; children: ViewComponent[] }[] }
    | { type: 'grid'; columns: number; children: ViewComponent[] }
    | {
        type: 'chart';
        chartType: (typeof viewChartKinds)[number];
        /** Rows from a query of the view … */
        query?: string;
        /** … or from an expression yielding an array of objects. */
        value?: string;
        /** The field (dot path) of each row on the x axis (the slice labels of a pie). */
        x: string;
        /** One series per field; a pie shows only the first. */
        y: string[];
        /** Events after a click on a point (or Enter on its data-table row); `components.<id>.value` is the point. */
        pointClick?: ViewEvent[];
      }
    /** Hidden until an `openModal` event; a centred dialog or a `drawer` at the side (its `title` heads it). */
    | { type: 'modal'; variant?: 'dialog' | 'drawer'; children: ViewComponent[] }
    | ViewInputComponent
  );

export const viewInputKinds = [
  'text',
  'number',
  'select',
  'multiselect',
  'checkbox',
  'switch',
  'date',
] as const;
/**
 * A standalone input (issue 29): its value is `components.<id>.value`. A `load` query whose
 * arguments read it runs again once the typing pauses (search as you type); `onChange` events run
 * after the same pause.
 */
export type ViewInputComponent = {
  type: 'input';
  inputType: (typeof viewInputKinds)[number];
  label?: string;
  placeholder?: string;
  /** The first value (an expression); empty, `false` or `[]` by kind when omitted. */
  default?: string;
  /** A select's choices: this list … */
  options?: { value: string | number | boolean; label: string }[];
  /** … or the rows of a query (`optionValue`/`optionLabel` name their fields). */
  optionsQuery?: string;
  optionValue?: string;
  optionLabel?: string;
  /** Milliseconds of quiet after the last change before queries and `onChange` run (400 by default). */
  debounceMs?: number;
  onChange?: ViewEvent[];
};
export type ViewComponentType = ViewComponent['type'];

const common = {
  id: viewLocalIdSchema,
  /** A caption shown above the component (a template). */
  title: z.string().max(500).optional(),
  /** Hidden while this expression is truthy. */
  hidden: expressionSchema.optional(),
};
const childrenSchema = () => z.array(viewComponentSchema).max(100);

export const viewComponentSchema: z.ZodType<ViewComponent> = z
  .lazy(() =>
    z.discriminatedUnion('type', [
      z.strictObject({
        ...common,
        type: z.literal('table'),
        query: viewLocalIdSchema.optional(),
        value: expressionSchema.optional(),
        columns: z.array(tableColumnSchema).max(100).optional(),
        sortable: z.boolean().optional(),
        filterable: z.boolean().optional(),
        pageSize: z.number().int().min(1).max(1000).optional(),
        /** Checkboxes on the rows: the checked rows are `components.<id>.selectedRows`. */
        multiSelect: z.boolean().optional(),
        /** A button that downloads the shown rows (filtered and sorted) as CSV. */
        csvExport: z.boolean().optional(),
        rowClick: eventsSchema.optional(),
        rowMenu: z
          .array(z.strictObject({ label: z.string().min(1).max(200), events: eventsSchema }))
          .max(20)
          .optional(),
      }),
      z.strictObject({
        ...common,
        type: z.literal('detail'),
        query: viewLocalIdSchema.optional(),
        value: expressionSchema.optional(),
        fields: z.array(fieldDisplaySchema).max(100).optional(),
      }),
      z.strictObject({
        ...common,
        type: z.literal('form'),
        fromAction: resourceIdSchema.optional(),
        fields: z
          .array(
            z.strictObject({
              name: nameSchema,
              type: z.enum(viewFormFieldTypes),
              label: z.string().max(200).optional(),
              required: z.boolean().optional(),
              default: expressionSchema.optional(),
              options: z
                .array(
                  z.strictObject({
                    value: z.union([z.string(), z.number(), z.boolean()]),
                    label: z.string().min(1).max(200),
                  }),
                )
                .max(500)
                .optional(),
            }),
          )
          .max(100)
          .optional(),
        submitLabel: z.string().max(200).optional(),
        submit: eventsSchema,
      }),
      z.strictObject({
        ...common,
        type: z.literal('button'),
        label: z.string().min(1).max(200),
        events: eventsSchema,
        variant: z.enum(['primary', 'secondary', 'danger']).optional(),
      }),
      z.strictObject({ ...common, type: z.literal('text'), content: expressionSchema }),
      z.strictObject({ ...common, type: z.literal('markdown'), content: z.string().max(100_000) }),
      z.strictObject({
        ...common,
        type: z.literal('media'),
        url: expressionSchema,
        kind: z.enum(['image', 'video', 'audio']).optional(),
      }),
      z.strictObject({
        ...common,
        type: z.literal('tabs'),
        tabs: z
          .array(z.strictObject({ label: z.string().min(1).max(200), children: childrenSchema() }))
          .min(1)
          .max(20),
      }),
      z.strictObject({
        ...common,
        type: z.literal('grid'),
        columns: z.number().int().min(1).max(12),
        children: childrenSchema(),
      }),
      z.strictObject({
        ...common,
        type: z.literal('chart'),
        chartType: z.enum(viewChartKinds),
        query: viewLocalIdSchema.optional(),
        value: expressionSchema.optional(),
        x: z.string().min(1).max(200),
        y: z.array(z.string().min(1).max(200)).min(1).max(20),
        pointClick: eventsSchema.optional(),
      }),
      z.strictObject({
        ...common,
        type: z.literal('modal'),
        variant: z.enum(['dialog', 'drawer']).optional(),
        children: childrenSchema(),
      }),
      z.strictObject({
        ...common,
        type: z.literal('input'),
        inputType: z.enum(viewInputKinds),
        label: z.string().max(200).optional(),
        placeholder: z.string().max(200).optional(),
        default: expressionSchema.optional(),
        options: z
          .array(
            z.strictObject({
              value: z.union([z.string(), z.number(), z.boolean()]),
              label: z.string().min(1).max(200),
            }),
          )
          .max(500)
          .optional(),
        optionsQuery: viewLocalIdSchema.optional(),
        optionValue: z.string().min(1).max(200).optional(),
        optionLabel: z.string().min(1).max(200).optional(),
        debounceMs: z.number().int().min(0).max(5000).optional(),
        onChange: eventsSchema.optional(),
      }),
    ]),
  )
  .meta({ id: 'ViewComponent', description: 'One component of a visual view; tabs and grids hold more' });

// --- Queries and definitions --------------------------------------------------------------------

export const viewQuerySchema = z.strictObject({
  id: viewLocalIdSchema,
  actionId: resourceIdSchema,
  arguments: argumentsSchema.default({}),
  /** `load`: when the view opens (and on refresh); `manual`: only by a runQuery event. */
  runOn: z.enum(['load', 'manual']).default('manual'),
  /** Reshapes the result for display: an expression over `result` (and the usual context). */
  transformer: expressionSchema.optional(),
  /** Server-side paging: the action's limit and offset parameters receive the page. */
  paging: z
    .strictObject({
      limitParameter: nameSchema,
      offsetParameter: nameSchema,
      pageSize: z.number().int().min(1).max(1000),
      /**
       * The number of rows of every page together (decision 0221): an expression over this
       * query's `rows` and `result` (`rows[0]?.total_count` from `count(*) over ()`) or another
       * query (`queries.order_count.rows[0].n`). With it the table shows "rows X–Y of N" and a
       * last-page button.
       */
      totalCount: expressionSchema.optional(),
    })
    .optional(),
});
export type ViewQuery = z.infer<typeof viewQuerySchema>;

/** The view's own arguments (`panel.args`), typed like action parameters; navigation fills them. */
const viewParametersSchema = z.array(parameterSchema).max(50).default([]);

export const visualViewDefinitionSchema = z.strictObject({
  kind: z.literal('visual'),
  parameters: viewParametersSchema,
  queries: z.array(viewQuerySchema).max(viewLimits.maxQueries).default([]),
  /** The root component (usually a grid). */
  layout: viewComponentSchema,
  /** View state variables (`state.<name>`) and their first values (expressions); `setState` events change them. */
  state: z.record(nameSchema, expressionSchema).optional(),
  /**
   * Queries run again every `everySeconds` (at least 5) while the view is open. Like on-load queries
   * they are sent unconfirmed, so only reading actions run (the server refuses changing ones).
   */
  timers: z
    .array(
      z.strictObject({
        everySeconds: z.number().int().min(5).max(86_400),
        queries: z.array(viewLocalIdSchema).min(1).max(50),
      }),
    )
    .max(10)
    .optional(),
});

export const codeViewDefinitionSchema = z.strictObject({
  kind: z.literal('code'),
  parameters: viewParametersSchema,
  /** JSX/TSX of a React component, the default export; imports only from "dogu" (the SDK) and "react". */
  source: z.string().min(1),
  /** The actions the code may call: checked when saved, and the SDK refuses any other. */
  actionIds: z.array(resourceIdSchema).max(100).default([]),
});

export const viewDefinitionSchema = z
  .discriminatedUnion('kind', [visualViewDefinitionSchema, codeViewDefinitionSchema])
  .meta({ id: 'ViewDefinition', description: 'A visual layout of components, or the source of a code view' });
export type ViewDefinition = z.infer<typeof viewDefinitionSchema>;
export type VisualViewDefinition = z.infer<typeof visualViewDefinitionSchema>;
export type CodeViewDefinition = z.infer<typeof codeViewDefinitionSchema>;

/** Who may see the view: the actions' permission model without `javascript_action`. */
export const viewPermissionSchema = permissionSchema
  .omit({ javascriptActionId: true })
  .extend({ mode: z.enum(['everyone', 'restricted']) });
export type ViewPermission = z.infer<typeof viewPermissionSchema>;

/** The body of PUT /api/v1/projects/{projectId}/views/{viewId} and an entry of `views:` in dogu.yaml. */
export const viewInputSchema = z
  .object({
    id: resourceIdSchema,
    name: z.string().min(1).max(200),
    description: z.string().max(2000).optional(),
    /** The action group (navigation) the view is listed under; ungrouped when omitted. */
    groupId: resourceIdSchema.optional(),
    permission: viewPermissionSchema.optional(),
    definition: viewDefinitionSchema,
  })
  .meta({ id: 'ViewInput' });
export type ViewInput = z.infer<typeof viewInputSchema>;

/** What a code view's source becomes when saved (esbuild transform at save time; decision 0044). */
export interface CompiledViewSource {
  /** An ES module; its default export is the component. Imports only "react" and "dogu". */
  code: string;
  compiler: string;
}

/** The stored head of a view: the input plus bookkeeping, like an action's head. */
export type View = ViewInput & {
  projectId: string;
  /** Increases by one on every save. */
  version: number;
  createdAt: string;
  updatedAt: string;
  updatedBy?: { id: string; email: string };
  /** Code views only: the compiled source of this version. */
  compiled?: CompiledViewSource;
};
