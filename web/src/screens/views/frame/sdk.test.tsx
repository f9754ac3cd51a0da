// @vitest-environment jsdom
/**
 * The code-view SDK's parts in the frame's own React, connected to a bridge that records what would
 * go to the console and answers runs as the console does: a debounced input and `useDebounced`
 * make one run per pause in typing; `ready: false` waits; a run's question and toasts go out as
 * messages; a table selects rows and exports them; a modal holds focus; `useInterval` runs no more
 * often than visual views' timers (issue 29).
 */
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { FrameActionOutcome } from './protocol.ts';
import {
  ActionError,
  Chart,
  type ChartPoint,
  connect,
  DateRange,
  type DateRangeValue,
  Drawer,
  Input,
  Modal,
  MultiSelect,
  runAction,
  Select,
  Switch,
  Table,
  toast,
  useAction,
  useDebounced,
  useInterval,
} from './sdk.tsx';

const calls: { actionId: string; args: Record<string, unknown>; confirm?: string }[] = [];
const sent: Record<string, unknown>[] = [];
let answer: FrameActionOutcome = { ok: true, rows: [{ id: 1 }], result: [], results: [], executionId: 'e1' };

beforeEach(() => {
  calls.length = 0;
  sent.length = 0;
  answer = { ok: true, rows: [{ id: 1 }], result: [], results: [], executionId: 'e1' };
  connect({
    send: (message) => sent.push(message),
    call: async (actionId, args, confirm) => {
      calls.push({ actionId, args, ...(confirm === undefined ? {} : { confirm }) });
      return answer;
    },
    library: () => Promise.reject(new Error('no libraries here')),
  });
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

function type(input: HTMLElement, text: string) {
  for (let i = 1; i <= text.length; i++) {
    fireEvent.change(input, { target: { value: text.slice(0, i) } });
    act(() => vi.advanceTimersByTime(100));
  }
}

describe('searching as one types', () => {
  it('Input with debounceMs shows each key and reports once per pause', () => {
    vi.useFakeTimers();
    const reported: string[] = [];
    function Search() {
      const [q, setQ] = useState('');
      return (
        <Input
          label="Customer"
          value={q}
          debounceMs={400}
          onChange={(next) => {
            reported.push(next);
            setQ(next);
          }}
        />
      );
    }
    render(<Search />);
    const box = screen.getByLabelText('Customer') as HTMLInputElement;
    type(box, 'ord');
    expect(box.value).toBe('ord');
    expect(reported).toEqual([]);
    act(() => vi.advanceTimersByTime(400));
    expect(reported).toEqual(['ord']);
  });

  it('useDebounced with useAction runs once on open and once per pause', async () => {
    vi.useFakeTimers();
    function Search() {
      const [q, setQ] = useState('');
      const { rows } = useAction('search-orders', { customer: useDebounced(q) });
      return (
        <>
          <input aria-label="Customer" value={q} onChange={(e) => setQ(e.target.value)} />
          <p>{rows.length} rows</p>
        </>
      );
    }
    render(<Search />);
    await act(async () => vi.advanceTimersByTimeAsync(500));
    type(screen.getByLabelText('Customer'), 'ord');
    await act(async () => vi.advanceTimersByTimeAsync(500));
    expect(calls.map((c) => c.args)).toEqual([{ customer: '' }, { customer: 'ord' }]);
  });

  it('useAction with ready: false waits, then runs once', async () => {
    function Waiting() {
      const [q, setQ] = useState('');
      const { waiting, loading } = useAction('search-orders', { customer: q }, { ready: q !== '' });
      return (
        <>
          <button type="button" onClick={() => setQ('ada')}>
            Set
          </button>
          <p>{waiting ? 'waiting' : loading ? 'loading' : 'done'}</p>
        </>
      );
    }
    render(<Waiting />);
    expect(screen.getByText('waiting')).toBeTruthy();
    expect(calls).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: 'Set' }));
    await screen.findByText('done');
    expect(calls).toEqual([{ actionId: 'search-orders', args: { customer: 'ada' } }]);
  });
});

describe('choices', () => {
  it('Select takes its options from rows, MultiSelect toggles values, Switch is a switch', () => {
    const picked: unknown[] = [];
    function Choices() {
      const [status, setStatus] = useState('');
      const [tags, setTags] = useState<string[]>(['a']);
      const [on, setOn] = useState(false);
      const [range, setRange] = useState<DateRangeValue>({ from: '', to: '' });
      picked.push({ status, tags, on, range });
      return (
        <>
          <Select
            label="Status"
            value={status}
            onChange={setStatus}
            rows={[
              { code: 'paid', name: 'Paid' },
              { code: 'shipped', name: 'Shipped' },
            ]}
            optionValue="code"
            optionLabel="name"
          />
          <MultiSelect
            label="Tags"
            value={tags}
            onChange={setTags}
            options={['a', { value: 'b', label: 'Bee' }]}
          />
          <Switch label="Only open" checked={on} onChange={setOn} />
          <DateRange label="Ordered" value={range} onChange={setRange} />
        </>
      );
    }
    render(<Choices />);
    const select = screen.getByLabelText('Status') as HTMLSelectElement;
    expect([...select.options].map((o) => o.textContent)).toEqual(['', 'Paid', 'Shipped']);
    fireEvent.change(select, { target: { value: 'shipped' } });
    fireEvent.click(screen.getByLabelText('Bee'));
    fireEvent.click(screen.getByLabelText('a'));
    fireEvent.click(screen.getByRole('switch', { name: 'Only open' }));
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-11-01' } });
    expect(picked.at(-1)).toEqual({
      status: 'shipped',
      tags: ['b'],
      on: true,
      range: { from: '2026-11-01', to: '' },
    });
    expect((screen.getByLabelText('To') as HTMLInputElement).min).toBe('2026-11-01');
  });
});

describe('messages to the console', () => {
  it("sends a run's question with the run, and a declined run rejects with its code", async () => {
    await runAction('ship', { id: 7 }, { confirm: 'Ship order 7?' });
    expect(calls).toEqual([{ actionId: 'ship', args: { id: 7 }, confirm: 'Ship order 7?' }]);
    answer = { ok: false, error: { code: 'run_declined', title: 'Not run', detail: 'nothing was run' } };
    const declined = await runAction('ship', { id: 7 }, { confirm: 'Ship order 7?' }).catch((e) => e);
    expect(declined).toBeInstanceOf(ActionError);
    expect((declined as ActionError).code).toBe('run_declined');
  });

  it('sends toasts as text of a kind', () => {
    toast('Saved');
    toast('Careful', 'error');
    expect(sent).toEqual([
      { type: 'toast', message: 'Saved', kind: 'success' },
      { type: 'toast', message: 'Careful', kind: 'error' },
    ]);
  });
});

describe('Table', () => {
  const rows = [
    { id: 1, name: 'Ada' },
    { id: 2, name: 'Grace' },
    { id: 3, name: 'Linus' },
  ];

  it('selects several rows, all of them, and exports what it shows', () => {
    const selections: unknown[][] = [];
    render(
      <Table
        rows={rows}
        rowKey="id"
        selection="multiple"
        onSelectionChange={(picked) => selections.push(picked.map((r) => r.id))}
        exportCsv="people"
      />,
    );
    fireEvent.click(screen.getByLabelText('Select row 1'));
    fireEvent.click(screen.getByLabelText('Select row 3'));
    expect(selections.at(-1)).toEqual([1, 3]);
    fireEvent.click(screen.getByLabelText('Select all rows'));
    expect(selections.at(-1)).toEqual([1, 2, 3]);
    fireEvent.click(screen.getByLabelText('Select all rows'));
    expect(selections.at(-1)).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect(sent).toEqual([
      {
        type: 'exportCsv',
        fileName: 'people',
        columns: [
          { field: 'id', label: 'id' },
          { field: 'name', label: 'name' },
        ],
        rows,
      },
    ]);
  });

  it('selects one row by click or Enter, and pages on the server', () => {
    const selections: unknown[][] = [];
    const pages: number[] = [];
    render(
      <Table
        rows={rows}
        rowKey="id"
        selection="single"
        onSelectionChange={(picked) => selections.push(picked.map((r) => r.id))}
        page={1}
        pageSize={3}
        total={7}
        onPageChange={(p) => pages.push(p)}
      />,
    );
    fireEvent.click(screen.getByText('Grace'));
    fireEvent.keyDown(screen.getByText('Linus').closest('tr')!, { key: 'Enter' });
    expect(selections).toEqual([[2], [3]]);
    expect(screen.getByText('Grace').closest('tr')!.getAttribute('aria-current')).toBeNull();
    expect(screen.getByText('Linus').closest('tr')!.getAttribute('aria-current')).toBe('true');
    expect(screen.getByText('Page 1 of 3')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Previous' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(pages).toEqual([2]);
  });
});

describe('Modal', () => {
  it('moves focus in, keeps it there, closes on Escape and gives focus back', () => {
    function WithModal() {
      const [open, setOpen] = useState(false);
      return (
        <>
          <button type="button" onClick={() => setOpen(true)}>
            Open
          </button>
          <Modal open={open} onClose={() => setOpen(false)} title="Order 7">
            <input aria-label="Note" />
          </Modal>
        </>
      );
    }
    render(<WithModal />);
    const opener = screen.getByRole('button', { name: 'Open' });
    opener.focus();
    fireEvent.click(opener);
    const dialog = screen.getByRole('dialog', { name: 'Order 7' });
    expect(document.activeElement).toBe(screen.getByLabelText('Note'));
    const close = screen.getByRole('button', { name: 'Close' });
    close.focus();
    fireEvent.keyDown(close, { key: 'Tab' });
    expect(document.activeElement).toBe(screen.getByLabelText('Note'));
    fireEvent.keyDown(dialog, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(opener);
  });
});

describe('Chart', () => {
  it('has a named canvas and a data table of its points, where Enter picks a point', () => {
    // Chart.js never arrives here (jsdom has no canvas): the text alternative works without it.
    connect({ send: () => {}, call: async () => answer, library: () => new Promise<string>(() => {}) });
    const picked: ChartPoint[] = [];
    const rows = [
      { month: 'Jan', total: '1200', count: 3 },
      { month: 'Feb', total: 900, count: 'n/a' },
    ];
    render(
      <Chart
        type="line"
        rows={rows}
        x="month"
        y={['total', 'count']}
        title="Sales"
        onPointClick={(p) => picked.push(p)}
      />,
    );
    expect(screen.getByRole('img', { name: 'Line chart: Sales' }).tagName).toBe('CANVAS');
    const toggle = screen.getByRole('button', { name: 'Show data' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(toggle);
    const table = screen.getByRole('table', { name: 'Data of Sales' });
    const cells = [...table.querySelectorAll('tbody tr')].map((tr) =>
      [...tr.children].map((c) => c.textContent),
    );
    expect(cells).toEqual([
      ['Jan', (1200).toLocaleString(), '3'],
      ['Feb', (900).toLocaleString(), '—'],
    ]);
    fireEvent.keyDown(table.querySelectorAll('tbody tr')[1]!, { key: 'Enter' });
    expect(picked).toEqual([{ x: 'Feb', y: 900, series: 'total', index: 1, row: rows[1] }]);
  });
});

describe('Drawer', () => {
  it('is the same dialog at the edge, with the footer before Close', () => {
    const closed: string[] = [];
    render(
      <Drawer
        open
        title="Filters"
        onClose={() => closed.push('x')}
        footer={<button type="button">Apply</button>}
      >
        <p>Narrow the list</p>
      </Drawer>,
    );
    const drawer = screen.getByRole('dialog', { name: 'Filters' });
    expect(drawer.className).toContain('dg-drawer');
    expect([...drawer.querySelectorAll('button')].map((b) => b.textContent)).toEqual(['Apply', 'Close']);
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Apply' }));
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(closed).toEqual(['x']);
  });
});

describe('useInterval', () => {
  it('runs no more often than every 5 s, and stops when paused', () => {
    vi.useFakeTimers();
    let ticks = 0;
    function Ticker({ every }: { every: number | null }) {
      useInterval(() => {
        ticks += 1;
      }, every);
      return null;
    }
    const { rerender } = render(<Ticker every={1} />);
    act(() => vi.advanceTimersByTime(4999));
    expect(ticks).toBe(0);
    act(() => vi.advanceTimersByTime(1));
    expect(ticks).toBe(1);
    rerender(<Ticker every={null} />);
    act(() => vi.advanceTimersByTime(20_000));
    expect(ticks).toBe(1);
  });
});
