/**
 * The demo's third view, an operations dashboard (docs/views.md "The operations dashboard"): orders
 * per day and revenue by status as charts, a search-as-you-type orders table with "rows X–Y of N",
 * CSV export and an inline-edited total, and a row that opens an edit form in a modal which saves
 * through an action after a confirmation and says so in a toast. It is listed in the action group
 * "Operations" with the actions it runs. Saved through the same validation as a user's.
 */
import type { ActionInput } from '../shared/domain/definitions/action.ts';
import type { ActionGroupInput } from '../shared/domain/definitions/governance.ts';
import type { ViewInput } from '../shared/domain/definitions/view.ts';

const statusOptions = ['pending', 'paid', 'shipped', 'delivered', 'cancelled'].map((value) => ({
  value,
  label: value[0]!.toUpperCase() + value.slice(1),
}));

export const demoOperationsActions: ActionInput[] = [
  {
    id: 'orders-per-day',
    name: 'Orders per day',
    description: 'How many orders came in on each day (Japan time).',
    kind: 'sql',
    dataSourceId: 'demo-postgres',
    parameters: [],
    statements: [
      {
        title: 'Orders per day',
        sql: [
          "SELECT to_char(ordered_at AT TIME ZONE 'Asia/Tokyo', 'YYYY-MM-DD') AS day, count(*)::int AS orders",
          'FROM orders',
          'GROUP BY 1',
          'ORDER BY 1',
        ].join('\n'),
      },
    ],
  },
  {
    id: 'revenue-by-status',
    name: 'Revenue by status',
    description: 'The orders and their total in yen for each status.',
    kind: 'sql',
    dataSourceId: 'demo-postgres',
    parameters: [],
    statements: [
      {
        title: 'Revenue by status',
        sql: [
          'SELECT status, count(*)::int AS orders, sum(total_yen)::int AS revenue_yen',
          'FROM orders',
          'GROUP BY status',
          'ORDER BY status',
        ].join('\n'),
      },
    ],
  },
  {
    id: 'lookup-orders',
    name: 'Look up orders',
    description:
      'Orders whose customer name contains the text or whose number is the text, newest first, a page at a time; total_count counts every match.',
    kind: 'sql',
    dataSourceId: 'demo-postgres',
    parameters: [
      { name: 'q', kind: 'text', label: 'Customer or order number', default: '' },
      { name: 'limit', kind: 'number', label: 'Limit', default: 20, integer: true, min: 1, max: 200 },
      { name: 'offset', kind: 'number', label: 'Offset', default: 0, integer: true, min: 0 },
    ],
    statements: [
      {
        title: 'Orders',
        sql: [
          'SELECT o.id, c.name AS customer, o.status, o.total_yen, o.ordered_at,',
          '  count(*) OVER ()::int AS total_count',
          'FROM orders o JOIN customers c ON c.id = o.customer_id',
          "WHERE coalesce({{ q }}, '') = ''",
          "   OR c.name ILIKE '%' || {{ q }} || '%'",
          '   OR o.id::text = {{ q }}',
          'ORDER BY o.id DESC',
          'LIMIT {{ limit }} OFFSET {{ offset }}',
        ].join('\n'),
      },
    ],
  },
  {
    id: 'update-order',
    name: 'Update order',
    description: "Sets an order's status and total.",
    kind: 'sql',
    dataSourceId: 'demo-postgres',
    parameters: [
      { name: 'order_id', kind: 'number', label: 'Order number', required: true, integer: true, min: 1 },
      { name: 'status', kind: 'text', label: 'Status', required: true, choices: statusOptions },
      { name: 'total_yen', kind: 'number', label: 'Total (¥)', required: true, integer: true, min: 0 },
    ],
    statements: [
      {
        title: 'Updated',
        sql: [
          'UPDATE orders SET status = {{ status }}, total_yen = {{ total_yen }}',
          'WHERE id = {{ order_id }}',
          'RETURNING id, status, total_yen',
        ].join('\n'),
        // Preview shows the order before and after, then rolls back (docs/governance.md).
        previewSql: 'SELECT id, status, total_yen FROM orders WHERE id = {{ order_id }}',
      },
    ],
  },
];

const selectedOrder = 'components.orders_table.value';

export const demoOperationsView: ViewInput = {
  id: 'operations-dashboard',
  name: 'Operations dashboard',
  description: 'Orders per day, revenue by status, and an orders table to search and edit.',
  groupId: 'operations',
  definition: {
    kind: 'visual',
    parameters: [],
    queries: [
      { id: 'per_day', actionId: 'orders-per-day', arguments: {}, runOn: 'load' },
      { id: 'by_status', actionId: 'revenue-by-status', arguments: {}, runOn: 'load' },
      {
        id: 'orders',
        actionId: 'lookup-orders',
        arguments: { q: 'components.search.value' },
        runOn: 'load',
        paging: {
          limitParameter: 'limit',
          offsetParameter: 'offset',
          pageSize: 20,
          totalCount: 'rows[0]?.total_count ?? 0',
        },
      },
    ],
    layout: {
      id: 'root',
      type: 'grid',
      columns: 1,
      children: [
        {
          id: 'charts',
          type: 'grid',
          columns: 2,
          children: [
            {
              id: 'orders_chart',
              type: 'chart',
              title: 'Orders per day',
              chartType: 'line',
              query: 'per_day',
              x: 'day',
              y: ['orders'],
            },
            {
              id: 'revenue_chart',
              type: 'chart',
              title: 'Revenue by status (¥)',
              chartType: 'bar',
              query: 'by_status',
              x: 'status',
              y: ['revenue_yen'],
            },
          ],
        },
        {
          id: 'search',
          type: 'input',
          inputType: 'text',
          label: 'Search orders',
          placeholder: 'Customer name or order number',
          debounceMs: 400,
        },
        {
          id: 'orders_table',
          type: 'table',
          title: 'Orders',
          query: 'orders',
          columns: [
            { field: 'id', label: 'Order' },
            { field: 'customer', label: 'Customer' },
            { field: 'status', label: 'Status' },
            {
              field: 'total_yen',
              label: 'Total (¥)',
              format: 'number',
              edit: {
                actionId: 'update-order',
                inputType: 'number',
                arguments: { order_id: 'row.id', status: 'row.status', total_yen: 'value' },
              },
            },
            { field: 'ordered_at', label: 'Ordered at', format: 'datetime' },
          ],
          sortable: true,
          csvExport: true,
          rowClick: [{ type: 'openModal', modal: 'edit_order' }],
        },
        {
          id: 'edit_order',
          type: 'modal',
          title: `Order {{ ${selectedOrder}.id }}`,
          children: [
            {
              id: 'edit_form',
              type: 'form',
              fields: [
                {
                  name: 'status',
                  type: 'select',
                  label: 'Status',
                  required: true,
                  default: `${selectedOrder}.status`,
                  options: statusOptions,
                },
                {
                  name: 'total_yen',
                  type: 'number',
                  label: 'Total (¥)',
                  required: true,
                  default: `${selectedOrder}.total_yen`,
                },
              ],
              submitLabel: 'Save',
              submit: [
                {
                  type: 'runAction',
                  actionId: 'update-order',
                  arguments: {
                    order_id: `${selectedOrder}.id`,
                    status: 'components.edit_form.value.status',
                    total_yen: 'components.edit_form.value.total_yen',
                  },
                  confirm: `Save order {{ ${selectedOrder}.id }} as {{ components.edit_form.value.status }}, ¥{{ components.edit_form.value.total_yen }}?`,
                  onSuccess: [
                    { type: 'closeModal', modal: 'edit_order' },
                    { type: 'refresh', queries: ['orders', 'by_status'] },
                    { type: 'toast', message: 'Saved order {{ result[0].id }}: {{ result[0].status }}' },
                  ],
                },
              ],
            },
          ],
        },
      ],
    },
  },
};

/** The group the dashboard is listed under, with the actions it runs (docs/governance.md). */
export const demoOperationsGroup: ActionGroupInput = {
  id: 'operations',
  name: 'Operations',
  actionIds: demoOperationsActions.map((action) => action.id),
};
