/**
 * The demo's actions: every parameter kind usable in SQL, a multi-statement
 * report, media URLs, and an HTTP API data source with an authentication
 * action. They are saved through the same validation as a user's.
 */
import type { ActionInput } from '../shared/domain/definitions/action.ts';

const statusChoices = ['pending', 'paid', 'shipped', 'delivered', 'cancelled'].map((value) => ({
  value,
  label: value[0]!.toUpperCase() + value.slice(1),
}));

export const demoSqlActions: ActionInput[] = [
  {
    id: 'find-orders',
    name: 'Find orders',
    description:
      'Every SQL parameter kind at work: an array as an IN list, a boolean, a date, and a safe sort column.',
    kind: 'sql',
    dataSourceId: 'demo-postgres',
    parameters: [
      {
        name: 'statuses',
        kind: 'array',
        itemKind: 'text',
        format: 'sql',
        label: 'Statuses',
        choices: statusChoices,
        default: ['paid', 'shipped'],
      },
      { name: 'min_total', kind: 'number', label: 'Minimum total (¥)', default: 0, min: 0 },
      { name: 'since', kind: 'date', label: 'Ordered since', default: '2026-03-01' },
      { name: 'large_only', kind: 'boolean', label: 'Only orders over ¥10,000' },
      {
        name: 'sort_by',
        kind: 'text',
        label: 'Sort by',
        identifier: true,
        default: 'id',
        choices: [
          { value: 'id', label: 'Order number' },
          { value: 'total_yen', label: 'Total' },
          { value: 'ordered_at', label: 'Order date' },
        ],
      },
      { name: 'limit', kind: 'number', label: 'Limit', default: 20, integer: true, min: 1, max: 1000 },
    ],
    statements: [
      {
        title: 'Orders',
        sql: [
          'SELECT o.id, c.name AS customer, o.status, o.total_yen, o.ordered_at',
          'FROM orders o JOIN customers c ON c.id = o.customer_id',
          'WHERE o.status IN {{ statuses }}',
          '  AND o.total_yen >= {{ min_total }}',
          '  AND o.ordered_at >= CAST({{ since }} AS date)',
          '  AND (NOT {{ large_only }} OR o.total_yen > 10000)',
          'ORDER BY o.{{ sort_by }}',
          'LIMIT {{ limit }}',
        ].join('\n'),
      },
    ],
  },
  {
    id: 'orders-in-period',
    name: 'Orders in a period',
    description: 'A tuple in JSON format and a date bound as Unix time.',
    kind: 'sql',
    dataSourceId: 'demo-postgres',
    parameters: [
      {
        name: 'period',
        kind: 'tuple',
        label: 'From and to (dates)',
        items: [
          { kind: 'text', label: 'From' },
          { kind: 'text', label: 'To' },
        ],
        format: 'json',
        default: ['2026-03-01', '2026-03-08'],
      },
      {
        name: 'not_after',
        kind: 'date',
        label: 'Not after (as Unix time)',
        useAsUnixtime: true,
        withTime: true,
      },
      {
        name: 'statuses_json',
        kind: 'array',
        itemKind: 'text',
        format: 'json',
        label: 'Statuses',
        choices: statusChoices,
      },
    ],
    statements: [
      {
        title: 'Orders',
        sql: [
          'SELECT id, status, total_yen, ordered_at FROM orders',
          'WHERE ordered_at >= CAST(CAST({{ period }} AS jsonb) ->> 0 AS date)',
          '  AND ordered_at < CAST(CAST({{ period }} AS jsonb) ->> 1 AS date) + 1',
          '  AND (CAST({{ not_after }} AS bigint) IS NULL OR ordered_at <= to_timestamp({{ not_after }}))',
          '  AND (jsonb_array_length(CAST({{ statuses_json }} AS jsonb)) = 0',
          '       OR status IN (SELECT jsonb_array_elements_text(CAST({{ statuses_json }} AS jsonb))))',
          'ORDER BY ordered_at',
        ].join('\n'),
      },
    ],
  },
  {
    id: 'sales-report',
    name: 'Sales report',
    description: 'Three statements, each in its own transaction; the title comes from a variable.',
    kind: 'sql',
    dataSourceId: 'demo-postgres',
    parameters: [
      { name: 'top', kind: 'number', label: 'Top customers', default: 5, integer: true, min: 1, max: 50 },
    ],
    statements: [
      {
        title: 'Report',
        sql: 'SELECT {{ vars.report_title }} AS title, now() AS generated_at, {{ currentUser.email }} AS requested_by',
      },
      {
        title: 'By status',
        sql: 'SELECT status, count(*)::int AS orders, sum(total_yen)::int AS total_yen FROM orders GROUP BY status ORDER BY status',
      },
      {
        title: 'Top customers',
        sql: [
          'SELECT c.name, c.country, count(*)::int AS orders, sum(o.total_yen)::int AS total_yen',
          'FROM orders o JOIN customers c ON c.id = o.customer_id',
          "WHERE o.status <> 'cancelled'",
          'GROUP BY c.id ORDER BY total_yen DESC LIMIT {{ top }}',
        ].join('\n'),
      },
    ],
  },
  {
    id: 'product-gallery',
    name: 'Product gallery',
    description:
      'Image, video and PDF URLs in the result are shown as media (served by this runtime, no network needed).',
    kind: 'sql',
    dataSourceId: 'demo-postgres',
    parameters: [{ name: 'max_price', kind: 'number', label: 'Maximum price (¥)' }],
    statements: [
      {
        title: 'Products',
        sql: [
          'SELECT sku, name, price_yen,',
          "  CAST({{ vars.demo_media_url }} AS text) || '/' || image_file AS image_url,",
          "  CAST({{ vars.demo_media_url }} AS text) || '/' || video_file AS video_url,",
          "  CAST({{ vars.demo_media_url }} AS text) || '/' || sheet_file AS sheet_url",
          'FROM products',
          'WHERE CAST({{ max_price }} AS integer) IS NULL OR price_yen <= {{ max_price }}',
          'ORDER BY id',
        ].join('\n'),
      },
    ],
  },
  {
    id: 'orders-where',
    name: 'Orders matching raw SQL',
    description:
      'The SQL kind: its text is inserted as written. Only for people who may write SQL against this database.',
    kind: 'sql',
    dataSourceId: 'demo-postgres',
    parameters: [
      {
        name: 'condition',
        kind: 'sql',
        label: 'WHERE condition (raw SQL)',
        required: true,
        default: "status = 'paid' AND total_yen > 20000",
      },
      {
        name: 'delimited',
        kind: 'array',
        itemKind: 'text',
        format: 'delimiter',
        delimiter: ',',
        label: 'Also show these statuses',
      },
    ],
    statements: [
      {
        title: 'Orders',
        sql: 'SELECT id, status, total_yen, {{ delimited }} AS requested FROM orders WHERE {{ condition }} ORDER BY id LIMIT 50',
      },
    ],
  },
];

export const demoHttpActions: ActionInput[] = [
  {
    id: 'demo-api-login',
    name: 'Demo API: log in',
    description: 'The authentication action of the demo API; its access_token becomes {{ authToken }}.',
    kind: 'http',
    dataSourceId: 'demo-api',
    method: 'POST',
    path: '/login',
    headers: [],
    query: [],
    body: { type: 'json', json: '{"client": "dogu-demo"}' },
    parameters: [],
  },
  {
    id: 'exchange-rates',
    name: 'Exchange rates',
    description: 'An HTTP API action: a query parameter, the data source key header and the bearer token.',
    kind: 'http',
    dataSourceId: 'demo-api',
    method: 'GET',
    path: '/exchange-rates',
    headers: [{ key: 'Authorization', value: 'Bearer {{ authToken }}' }],
    query: [{ key: 'base', value: '{{ base }}' }],
    body: { type: 'none' },
    parameters: [
      {
        name: 'base',
        kind: 'text',
        label: 'Base currency',
        default: 'JPY',
        choices: ['JPY', 'USD', 'EUR', 'GBP', 'KRW'].map((value) => ({ value, label: value })),
      },
    ],
  },
  {
    id: 'shipment-status',
    name: 'Shipment status',
    description: 'A path parameter, URL-encoded into its segment.',
    kind: 'http',
    dataSourceId: 'demo-api',
    method: 'GET',
    path: '/shipments/{{ order_id }}',
    headers: [],
    query: [],
    body: { type: 'none' },
    parameters: [
      { name: 'order_id', kind: 'number', label: 'Order number', required: true, integer: true, min: 1 },
    ],
  },
];

/** The demo gRPC service (local/demo-grpc/, shop.v1.OrderService) described by server reflection. */
export const demoGrpcActions: ActionInput[] = [
  {
    id: 'grpc-get-order',
    name: 'gRPC: get an order',
    // Reads only: Dogu cannot see that in gRPC or a script, so the demo says so (no confirmation).
    effect: 'reads',
    description:
      'A gRPC action: shop.v1.OrderService/GetOrder with a JSON request; totalCents is int64, so it comes back as an exact decimal string.',
    kind: 'grpc',
    dataSourceId: 'demo-grpc',
    service: 'shop.v1.OrderService',
    method: 'GetOrder',
    request: '{\n  "id": "{{ order_id }}",\n  "includeItems": {{ include_items }}\n}',
    parameters: [
      {
        name: 'order_id',
        kind: 'text',
        label: 'Order',
        default: 'ord-1002',
        description:
          'ord-1001, ord-1002 or ord-1003; another id shows how a gRPC status (NOT_FOUND) is reported',
      },
      { name: 'include_items', kind: 'boolean', label: 'With items', default: true },
    ],
  },
  {
    id: 'grpc-list-orders',
    name: 'gRPC: list orders',
    // Reads only: Dogu cannot see that in gRPC or a script, so the demo says so (no confirmation).
    effect: 'reads',
    description: 'ListOrders: a reply whose only field is a repeated message is shown as a table.',
    kind: 'grpc',
    dataSourceId: 'demo-grpc',
    service: 'shop.v1.OrderService',
    method: 'ListOrders',
    request: '{ "customer": "{{ customer }}" }',
    parameters: [{ name: 'customer', kind: 'text', label: 'Customer e-mail', default: '' }],
  },
];

/** A JavaScript action that runs another action and reshapes its rows (docs/javascript.md). */
export const demoScriptActions: ActionInput[] = [
  {
    id: 'orders-digest',
    name: 'Orders digest (JavaScript)',
    // Reads only: Dogu cannot see that in gRPC or a script, so the demo says so (no confirmation).
    effect: 'reads',
    description: 'Runs "Find orders" with actions.run and sums its rows per status.',
    kind: 'javascript',
    dataSourceId: 'demo-scripts',
    parameters: [{ name: 'since', kind: 'date', label: 'Ordered since', default: '2026-03-01' }],
    code: [
      "const orders = await actions.run('find-orders', { since: params.since, statuses: ['paid', 'shipped', 'delivered'] });",
      "console.log('find-orders returned', orders.length, 'orders since', params.since);",
      'const byStatus = {};',
      'for (const order of orders) {',
      '  const entry = (byStatus[order.status] ??= { status: order.status, orders: 0, total_yen: 0 });',
      '  entry.orders += 1;',
      '  entry.total_yen += Number(order.total_yen);',
      '}',
      'return Object.values(byStatus);',
    ].join('\n'),
  },
];
