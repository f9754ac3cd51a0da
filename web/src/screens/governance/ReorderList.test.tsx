// @vitest-environment jsdom
/** Reordering an action group: drag and drop, and the keyboard way (move up / down buttons). */
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { I18nProvider } from '../../i18n/index.tsx';
import { moveItem, ReorderList } from './ReorderList.tsx';

afterEach(cleanup);

function Harness() {
  const [ids, setIds] = useState(['find-orders', 'sales-report', 'product-gallery', 'exchange-rates']);
  return (
    <I18nProvider language="en">
      <ReorderList label="Order" items={ids.map((id) => ({ id, label: id }))} onChange={setIds} />
      <pre data-testid="order">{ids.join(',')}</pre>
    </I18nProvider>
  );
}

const order = () => screen.getByTestId('order').textContent;
const item = (id: string) => document.querySelector(`[data-id="${id}"]`) as HTMLElement;

/** The browser's DataTransfer is not in jsdom: a store with the same two calls the list uses. */
function dataTransfer() {
  const store = new Map<string, string>();
  return {
    effectAllowed: 'all',
    setData: (type: string, value: string) => store.set(type, value),
    getData: (type: string) => store.get(type) ?? '',
  };
}

describe('reorder list', () => {
  it('drag and drop moves an item to where it is dropped', () => {
    render(<Harness />);
    const transfer = dataTransfer();
    fireEvent.dragStart(item('product-gallery'), { dataTransfer: transfer });
    fireEvent.dragOver(item('find-orders'), { dataTransfer: transfer });
    expect(item('find-orders').className).toContain('is-over');
    fireEvent.drop(item('find-orders'), { dataTransfer: transfer });
    expect(order()).toBe('product-gallery,find-orders,sales-report,exchange-rates');
    expect(screen.getByRole('status').textContent).toBe('product-gallery moved to position 1 of 4.');

    fireEvent.dragStart(item('find-orders'), { dataTransfer: transfer });
    fireEvent.drop(item('exchange-rates'), { dataTransfer: transfer });
    expect(order()).toBe('product-gallery,sales-report,exchange-rates,find-orders');
  });

  it('move up / move down buttons do the same without a mouse, and stop at the ends', () => {
    render(<Harness />);
    fireEvent.click(screen.getByRole('button', { name: 'Move sales-report up' }));
    expect(order()).toBe('sales-report,find-orders,product-gallery,exchange-rates');
    expect((screen.getByRole('button', { name: 'Move sales-report up' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Move find-orders down' }));
    expect(order()).toBe('sales-report,product-gallery,find-orders,exchange-rates');
    expect(
      (screen.getByRole('button', { name: 'Move exchange-rates down' }) as HTMLButtonElement).disabled,
    ).toBe(true);
    const positions = [...document.querySelectorAll('.reorder-position')].map((p) => p.textContent);
    expect(positions).toEqual(['1.', '2.', '3.', '4.']);
  });

  it('moveItem keeps every item once', () => {
    expect(moveItem(['a', 'b', 'c'], 2, 0)).toEqual(['c', 'a', 'b']);
    expect(moveItem(['a', 'b', 'c'], 0, 2)).toEqual(['b', 'c', 'a']);
    const same = ['a', 'b'];
    expect(moveItem(same, 1, 5)).toBe(same);
  });
});
