// @vitest-environment jsdom
/**
 * A table's multi-select (`components.<id>.selectedRows`, checkboxes that are not row clicks) and
 * its CSV export's content (csv-stringify's browser build, quoting, formula-looking cells defused).
 */
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { demoWorkspace, InConsole } from '../../../test-support/console.tsx';
import type { VisualViewDefinition } from '../view-api.ts';
import { csvCell, tableCsv } from './components/table-csv.ts';
import { ViewRenderer } from './ViewRenderer.tsx';

afterEach(cleanup);

const definition: VisualViewDefinition = {
  kind: 'visual',
  parameters: [],
  queries: [],
  layout: {
    id: 'root',
    type: 'grid',
    columns: 1,
    children: [
      {
        id: 't1',
        type: 'table',
        title: 'Orders',
        value: "[{ id: 1, customer: 'Aoki' }, { id: 2, customer: 'Baba' }, { id: 3, customer: 'Chiba' }]",
        multiSelect: true,
        csvExport: true,
      },
      {
        id: 'picked',
        type: 'text',
        content:
          "Picked {{ components.t1.selectedRows.length }}: {{ components.t1.selectedRows.map(r => r.id).join(',') }} (clicked {{ components.t1.value?.id ?? 'none' }})",
      },
    ],
  },
};

function show() {
  render(
    <InConsole
      session={{ user: { kind: 'user', id: 'usr_1', email: 'ops@dogu.local' }, signOut: async () => {} }}
    >
      <ViewRenderer
        viewId="v"
        definition={definition}
        args={{}}
        user={{ id: 'usr_1', email: 'ops@dogu.local' }}
        projectId="demo"
        environmentId="development"
        href={demoWorkspace.href}
      />
    </InConsole>,
  );
}

describe('table multi-select', () => {
  it('exposes the checked rows as selectedRows, in row order, without clicking the rows', async () => {
    show();
    await screen.findByText('Picked 0: (clicked none)');
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select row 3' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select row 1' }));
    await screen.findByText('Picked 2: 1,3 (clicked none)');
    expect(screen.getByText('2 selected')).toBeTruthy();

    fireEvent.click(screen.getByRole('checkbox', { name: 'Select the rows of this page' }));
    await screen.findByText('Picked 3: 1,2,3 (clicked none)');
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select the rows of this page' }));
    await screen.findByText('Picked 0: (clicked none)');

    // A click on the row itself still selects it as the value, apart from the checkboxes.
    const table = screen.getByRole('table', { name: 'Orders' });
    fireEvent.click(within(table).getByText('Baba'));
    await screen.findByText('Picked 0: (clicked 2)');
    expect(screen.getByRole('button', { name: 'Export CSV' })).toBeTruthy();
  });
});

describe('table CSV export', () => {
  it('writes a header of labels and the rows, quoted where needed', async () => {
    const csv = await tableCsv(
      [{ field: 'id', label: 'Order' }, { field: 'customer' }, { field: 'meta.note', label: 'Note' }],
      [
        { id: 1, customer: 'Aoki, Ltd.', meta: { note: 'says "hi"' } },
        { id: 2, customer: '=HYPERLINK("http://x")', meta: { note: 'line 1\nline 2' } },
        { id: -3, customer: '佐藤', meta: null },
      ],
    );
    expect(csv).toBe(
      [
        'Order,customer,Note',
        '1,"Aoki, Ltd.","says ""hi"""',
        `2,"'=HYPERLINK(""http://x"")","line 1\nline 2"`,
        '-3,佐藤,',
        '',
      ].join('\n'),
    );
  });

  it('keeps numbers and defuses text a spreadsheet would run', () => {
    expect(csvCell(-5)).toBe(-5);
    expect(csvCell('-5')).toBe("'-5");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell({ a: 1 })).toBe('{"a":1}');
    expect(csvCell(undefined)).toBe('');
  });
});
