/**
 * The demo's views (docs/views.md) and the actions they need: a visual view that searches orders
 * (server-side paging), shows the clicked order and marks it shipped, and a code view with a small
 * sales dashboard. Saved through the same validation as a user's.
 */
import type { ActionInput } from '../shared/domain/definitions/action.ts';
import type { ViewInput } from '../shared/domain/definitions/view.ts';

const statusOptions = ['pending', 'paid', 'shipped', 'delivered', 'cancelled'].map((value) => ({
  value,
  label: value[0]!.toUpperCase() + value.slice(1),
}));

export const demoViewActions: ActionInput[] = [
  {
    id: 'search-orders',
    name: 'Search orders',
    description: 'Orders by customer name and status, a page at a time (limit and offset).',
    kind: 'sql',
    dataSourceId: 'demo-postgres',
    parameters: [
      { name: 'customer', kind: 'text', label: 'Customer name contains' },
      { name: 'status', kind: 'text', label: 'Status', choices: statusOptions },
      { name: 'limit', kind: 'number', label: 'Limit', default: 20, integer: true, min: 1, max: 200 },
      { name: 'offset', kind: 'number', label: 'Offset', default: 0, integer: true, min: 0 },
    ],
    statements: [
      {
        title: 'Orders',
        sql: [
          'SELECT o.id, c.name AS customer, o.status, o.total_yen, o.ordered_at',
          'FROM orders o JOIN customers c ON c.id = o.customer_id',
          "WHERE ({{ customer }} = '' OR c.name ILIKE '%' || {{ customer }} || '%')",
          "  AND ({{ status }} = '' OR o.status = {{ status }})",
          'ORDER BY o.id',
          'LIMIT {{ limit }} OFFSET {{ offset }}',
        ].join('\n'),
      },
    ],
  },
  {
    id: 'order-detail',
    name: 'Order detail',
    description: 'One order with its customer and the number of items.',
    kind: 'sql',
    dataSourceId: 'demo-postgres',
    parameters: [
      { name: 'order_id', kind: 'number', label: 'Order number', required: true, integer: true, min: 1 },
    ],
    statements: [
      {
        title: 'Order',
        sql: [
          'SELECT o.id, c.name AS customer, c.email, o.status, o.total_yen, o.ordered_at,',
          '  (SELECT count(*)::int FROM order_items i WHERE i.order_id = o.id) AS items',
          'FROM orders o JOIN customers c ON c.id = o.customer_id',
          'WHERE o.id = {{ order_id }}',
        ].join('\n'),
      },
    ],
  },
  {
    id: 'mark-shipped',
    name: 'Mark shipped',
    description: 'A paid order becomes shipped; any other status is left as it is (no row returned).',
    kind: 'sql',
    dataSourceId: 'demo-postgres',
    parameters: [
      { name: 'order_id', kind: 'number', label: 'Order number', required: true, integer: true, min: 1 },
    ],
    statements: [
      {
        title: 'Shipped',
        sql: "UPDATE orders SET status = 'shipped' WHERE id = {{ order_id }} AND status = 'paid' RETURNING id, status",
        // Preview shows the order before and after the update, then rolls it back (docs/governance.md).
        previewSql: 'SELECT id, status, total_yen FROM orders WHERE id = {{ order_id }}',
      },
    ],
  },
];

/** Orders search → order detail → "mark shipped", on one screen. */
export const demoOrdersView: ViewInput = {
  id: 'orders',
  name: 'Orders',
  description: 'Search orders, open one, and mark a paid order shipped.',
  definition: {
    kind: 'visual',
    parameters: [],
    queries: [
      {
        id: 'orders',
        actionId: 'search-orders',
        arguments: { customer: 'components.search.value.customer', status: 'components.search.value.status' },
        runOn: 'load',
        paging: { limitParameter: 'limit', offsetParameter: 'offset', pageSize: 20 },
      },
      {
        id: 'order',
        actionId: 'order-detail',
        arguments: { order_id: 'components.orders_table.value.id' },
        runOn: 'manual',
      },
    ],
    layout: {
      id: 'root',
      type: 'grid',
      columns: 2,
      children: [
        {
          id: 'search',
          type: 'form',
          title: 'Search',
          fields: [
            { name: 'customer', type: 'text', label: 'Customer', default: "''" },
            { name: 'status', type: 'select', label: 'Status', default: "''", options: statusOptions },
          ],
          submitLabel: 'Search',
          submit: [{ type: 'runQuery', query: 'orders' }],
        },
        {
          id: 'order_detail',
          type: 'detail',
          title: 'Order {{ components.orders_table.value.id }}',
          query: 'order',
          hidden: '!components.orders_table.value',
          fields: [
            { field: 'customer', label: 'Customer' },
            { field: 'email', label: 'E-mail' },
            { field: 'status', label: 'Status' },
            { field: 'total_yen', label: 'Total (¥)', format: 'number' },
            { field: 'ordered_at', label: 'Ordered at', format: 'datetime' },
            { field: 'items', label: 'Items', format: 'number' },
          ],
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
            { field: 'total_yen', label: 'Total (¥)', format: 'number' },
            { field: 'ordered_at', label: 'Ordered at', format: 'datetime' },
          ],
          sortable: true,
          filterable: true,
          rowClick: [{ type: 'runQuery', query: 'order' }],
          rowMenu: [
            {
              label: 'Shipment status',
              events: [
                { type: 'navigate', to: { action: 'shipment-status' }, arguments: { order_id: 'row.id' } },
              ],
            },
          ],
        },
        {
          id: 'mark_shipped',
          type: 'button',
          label: 'Mark shipped',
          variant: 'primary',
          hidden: "!components.orders_table.value || queries.order.rows[0]?.status !== 'paid'",
          events: [
            {
              type: 'runAction',
              actionId: 'mark-shipped',
              arguments: { order_id: 'components.orders_table.value.id' },
              onSuccess: [{ type: 'refresh', queries: ['orders', 'order'] }],
            },
          ],
        },
      ],
    },
  },
};

/**
 * A code view: React with the SDK's `runAction` (the viewer's own call through the host), which
 * resolves with `{rows, result}` (for several statements `result` holds each statement's rows) or
 * rejects with the problem.
 */
export const demoDashboardSource = `import { useEffect, useState } from 'react';
import { runAction } from 'dogu';

type Row = Record<string, string | number>;

export default function SalesDashboard() {
  const [statuses, setStatuses] = useState<Row[]>([]);
  const [customers, setCustomers] = useState<Row[]>([]);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    runAction('sales-report', { top: 5 })
      .then(({ result }) => {
        const [, byStatus, topCustomers] = result as Row[][];
        setStatuses(byStatus);
        setCustomers(topCustomers);
      })
      .catch((problem) => setError(problem instanceof Error ? problem.message : String(problem)));
  }, []);

  if (error) return <p role="alert">{error}</p>;
  const total = statuses.reduce((sum, row) => sum + Number(row.total_yen), 0);
  return (
    <main>
      <h2>Sales</h2>
      <p>
        Total: <strong>¥{total.toLocaleString()}</strong>
      </p>
      <ul>
        {statuses.map((row) => (
          <li key={String(row.status)}>
            {row.status}: {row.orders} orders, ¥{Number(row.total_yen).toLocaleString()}
          </li>
        ))}
      </ul>
      <h3>Top customers</h3>
      <ol>
        {customers.map((row) => (
          <li key={String(row.name)}>
            {row.name} ({row.country}): ¥{Number(row.total_yen).toLocaleString()}
          </li>
        ))}
      </ol>
    </main>
  );
}
`;

export const demoDashboardView: ViewInput = {
  id: 'sales-dashboard',
  name: 'Sales dashboard',
  description: 'A code view: totals by status and the top customers, from the sales report action.',
  definition: {
    kind: 'code',
    parameters: [],
    source: demoDashboardSource,
    actionIds: ['sales-report'],
  },
};

export const demoViews: ViewInput[] = [demoOrdersView, demoDashboardView];
