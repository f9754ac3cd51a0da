// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { type DataColumn, DataTable } from './DataTable.tsx';

afterEach(cleanup);

interface Row {
  id: number;
  name: string;
  total: number | null;
  tags: string[];
}

const columns: DataColumn<Row>[] = [
  { key: 'id', label: 'id', type: 'number' },
  { key: 'name', label: 'name', type: 'string' },
  { key: 'total', label: 'total', type: 'number' },
  { key: 'tags', label: 'tags', type: 'json' },
];

const manyRows: Row[] = Array.from({ length: 100_000 }, (_, i) => ({
  id: i + 1,
  name: `Customer ${i + 1}`,
  total: i % 10 === 0 ? null : i * 3,
  tags: ['a', String(i)],
}));

const bodyRows = () => screen.getAllByRole('row').filter((row) => row.getAttribute('aria-rowindex') !== '1');

describe('DataTable', () => {
  it('renders fewer than 100 rows of 100,000 and tells assistive technology the full count', () => {
    render(<DataTable columns={columns} rows={manyRows} label="Orders" rowHeight={30} maxHeight={440} />);
    const rendered = bodyRows();
    expect(rendered.length).toBeGreaterThan(10);
    expect(rendered.length).toBeLessThan(100);
    expect(screen.getByRole('table', { name: 'Orders' }).getAttribute('aria-rowcount')).toBe('100001');
    expect(screen.getByText('Customer 1')).toBeTruthy();
    expect(screen.queryByText('Customer 5000')).toBeNull();
  });

  it('scrolling to the end shows the last rows and drops the first ones', () => {
    const { container } = render(
      <DataTable columns={columns} rows={manyRows} label="Orders" rowHeight={30} />,
    );
    const scroller = container.querySelector('.data-table') as HTMLDivElement;
    act(() => {
      scroller.scrollTop = 100_000 * 30 - 400;
      fireEvent.scroll(scroller);
    });
    expect(screen.getByText('Customer 100000')).toBeTruthy();
    expect(screen.queryByText('Customer 1')).toBeNull();
    const last = bodyRows().at(-1)!;
    expect(last.getAttribute('aria-rowindex')).toBe('100001');
    expect(last.style.top).toBe(`${99_999 * 30}px`);
    expect(bodyRows().length).toBeLessThan(100);
  });

  it('types cells: numbers right-aligned, NULL marked, JSON as text, header names each column', () => {
    render(<DataTable columns={columns} rows={manyRows.slice(0, 3)} label="Small" />);
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual([
      'id',
      'name',
      'total',
      'tags',
    ]);
    const nullCell = screen.getByText('NULL');
    expect(nullCell.className).toContain('dt-null');
    expect(screen.getByText('["a","1"]').className).toContain('dt-json');
    expect(screen.getByText('6').className).toContain('dt-number');
  });

  it('says there are no rows instead of an empty grid', () => {
    render(<DataTable columns={columns} rows={[]} label="Empty" />);
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.getByText('No rows.')).toBeTruthy();
  });
});
