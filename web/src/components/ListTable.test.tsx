// @vitest-environment jsdom
/** The list table: nothing before the list loads, the empty state for an empty list, else the table. */
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { I18nProvider } from '../i18n/index.tsx';
import { ListTable } from './ListTable.tsx';

afterEach(cleanup);

const sources = [
  { id: 'shop', name: 'Shop' },
  { id: 'crm', name: 'CRM' },
];

function renderList(items: typeof sources | undefined, rowActions = false) {
  return render(
    <I18nProvider language="en">
      <ListTable
        label="Data sources"
        columns={['Name', 'ID']}
        rowActions={rowActions}
        items={items}
        empty={<p>No data sources yet.</p>}
        className="sources"
        row={(source) => (
          <tr key={source.id}>
            <td>{source.name}</td>
            <td>{source.id}</td>
            {rowActions ? <td>edit</td> : null}
          </tr>
        )}
      />
    </I18nProvider>,
  );
}

describe('ListTable', () => {
  it('shows nothing while the list is not loaded', () => {
    const { container } = renderList(undefined);
    expect(container.innerHTML).toBe('');
  });

  it('shows the empty state, not a header-only table, for an empty list', () => {
    renderList([]);
    expect(screen.getByText('No data sources yet.')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('names the table, heads each column and renders one row per item', () => {
    renderList(sources);
    const table = screen.getByRole('table', { name: 'Data sources' });
    expect(table.className).toBe('plain-table sources');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Name', 'ID']);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => row.textContent)).toEqual(['Shopshop', 'CRMcrm']);
    expect(screen.queryByText('No data sources yet.')).toBeNull();
  });

  it('adds a last column for row buttons, named only for screen readers', () => {
    renderList(sources, true);
    const headers = screen.getAllByRole('columnheader');
    expect(headers.map((th) => th.textContent)).toEqual(['Name', 'ID', 'Actions']);
    expect(headers[2]!.querySelector('.visually-hidden')?.textContent).toBe('Actions');
  });
});
