// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Parameter } from '../../api/types.ts';
import { I18nProvider } from '../../i18n/index.tsx';
import { ParameterInput } from './ParameterInput.tsx';
import { type Drafts, errorsByParameter, initialDrafts, toArguments } from './parameter-values.ts';

afterEach(cleanup);

/** The action screen's form in miniature: inputs, and the arguments they would send. */
function Form({ parameters, errors = {} }: { parameters: Parameter[]; errors?: Record<string, string> }) {
  const [drafts, setDrafts] = useState<Drafts>(() => initialDrafts(parameters));
  const result = toArguments(parameters, drafts);
  return (
    <I18nProvider language="en">
      {parameters.map((parameter) => (
        <ParameterInput
          key={parameter.name}
          parameter={parameter}
          draft={drafts[parameter.name]!}
          onChange={(draft) => setDrafts((d) => ({ ...d, [parameter.name]: draft }))}
          error={errors[parameter.name]}
          choices={'choices' in parameter ? parameter.choices : undefined}
          user={{ kind: 'user', id: 'usr_1', email: 'ops@example.com', name: 'Ops' }}
        />
      ))}
      <output data-testid="arguments">{JSON.stringify(result.arguments)}</output>
      <output data-testid="client-errors">{JSON.stringify(result.errors)}</output>
    </I18nProvider>
  );
}

const sent = () => JSON.parse(screen.getByTestId('arguments').textContent!);
const clientErrors = () => JSON.parse(screen.getByTestId('client-errors').textContent!);

describe('parameter inputs per kind', () => {
  it('text: labelled input, required marker, value sent; empty leaves it to the default', () => {
    render(<Form parameters={[{ name: 'status', kind: 'text', label: 'Status', required: true }]} />);
    const input = screen.getByLabelText(/Status/) as HTMLInputElement;
    expect(input.getAttribute('aria-required')).toBe('true');
    expect(screen.getByText('*', { exact: false }).className).toContain('field-required');
    expect(sent()).toEqual({});
    fireEvent.change(input, { target: { value: 'paid' } });
    expect(sent()).toEqual({ status: 'paid' });
  });

  it('number: a numeric text input (letters are kept, not dropped); the value is sent as a number', () => {
    render(
      <Form
        parameters={[
          { name: 'limit', kind: 'number', label: 'Limit', integer: true, min: 1, max: 1000, default: 20 },
        ]}
      />,
    );
    const input = screen.getByLabelText(/Limit/) as HTMLInputElement;
    expect(input.type).toBe('text');
    expect(input.inputMode).toBe('numeric');
    expect(sent()).toEqual({ limit: 20 });
    fireEvent.change(input, { target: { value: '250' } });
    expect(sent()).toEqual({ limit: 250 });
    expect(screen.getByText('Whole number · at least 1 · at most 1000')).toBeTruthy();
  });

  it("number: the parameter's rules are checked in the form, each with its own message", () => {
    render(
      <Form
        parameters={[
          { name: 'limit', kind: 'number', label: 'Limit', integer: true, min: 1, max: 1000, default: 20 },
        ]}
      />,
    );
    const input = screen.getByLabelText(/Limit/) as HTMLInputElement;
    const cases: [string, unknown][] = [
      ['12abc', { key: 'param.notANumber' }],
      ['2.5', { key: 'param.notWholeNumber', vars: { value: 2.5 } }],
      ['0', { key: 'param.belowMin', vars: { min: 1 } }],
      ['1001', { key: 'param.aboveMax', vars: { max: 1000 } }],
    ];
    for (const [typed, error] of cases) {
      fireEvent.change(input, { target: { value: typed } });
      expect(input.value).toBe(typed);
      expect(clientErrors()).toEqual({ limit: error });
      expect(sent()).toEqual({});
    }
    fireEvent.change(input, { target: { value: ' 7 ' } });
    expect(clientErrors()).toEqual({});
    expect(sent()).toEqual({ limit: 7 });
  });

  it('boolean: a checkbox sending true/false', () => {
    render(<Form parameters={[{ name: 'large_only', kind: 'boolean', label: 'Large only' }]} />);
    expect(sent()).toEqual({ large_only: false });
    fireEvent.click(screen.getByLabelText(/Large only/));
    expect(sent()).toEqual({ large_only: true });
  });

  it('date: a date input; with time the browser zone offset is added (the API reads no zone as UTC)', () => {
    render(
      <Form
        parameters={[
          { name: 'since', kind: 'date', label: 'Since', default: '2026-03-01' },
          { name: 'at', kind: 'date', label: 'At', withTime: true },
        ]}
      />,
    );
    expect((screen.getByLabelText(/Since/) as HTMLInputElement).type).toBe('date');
    const at = screen.getByLabelText(/^At/) as HTMLInputElement;
    expect(at.type).toBe('datetime-local');
    fireEvent.change(at, { target: { value: '2026-11-22T09:30' } });
    const value = sent().at as string;
    expect(value).toMatch(/^2026-11-22T09:30:00[+-]\d\d:\d\d$/);
    expect(new Date(value).getTime()).toBe(new Date(2026, 10, 22, 9, 30).getTime());
    expect(sent().since).toBe('2026-03-01');
  });

  it('date as Unix time: shows the seconds it binds, and can be typed as Unix seconds', () => {
    render(
      <Form parameters={[{ name: 'not_after', kind: 'date', label: 'Not after', useAsUnixtime: true }]} />,
    );
    fireEvent.change(screen.getByLabelText(/Not after/), { target: { value: '2026-11-22' } });
    expect(screen.getByText(`Sent as Unix time ${Date.UTC(2026, 10, 22) / 1000}`)).toBeTruthy();
    fireEvent.click(screen.getByLabelText('Enter as Unix time (seconds)'));
    const seconds = screen.getByLabelText(/Not after/) as HTMLInputElement;
    expect(seconds.type).toBe('number');
    fireEvent.change(seconds, { target: { value: '1795000000' } });
    expect(sent()).toEqual({ not_after: 1_795_000_000 });
  });

  it('array with choices: checkboxes by label, values sent in the definition order', () => {
    render(
      <Form
        parameters={[
          {
            name: 'statuses',
            kind: 'array',
            itemKind: 'text',
            format: 'sql',
            label: 'Statuses',
            choices: [
              { value: 'paid', label: 'Paid' },
              { value: 'shipped', label: 'Shipped' },
              { value: 'cancelled', label: 'Cancelled' },
            ],
          },
        ]}
      />,
    );
    fireEvent.click(screen.getByLabelText('Cancelled'));
    fireEvent.click(screen.getByLabelText('Paid'));
    expect(sent()).toEqual({ statuses: ['paid', 'cancelled'] });
    expect(screen.getByRole('group', { name: /Statuses/ })).toBeTruthy();
  });

  it('array editor: add and remove items; number items are sent as numbers', () => {
    render(
      <Form
        parameters={[{ name: 'ids', kind: 'array', itemKind: 'number', format: 'json', label: 'Ids' }]}
      />,
    );
    fireEvent.click(screen.getByRole('button', { name: '+ Add item' }));
    fireEvent.click(screen.getByRole('button', { name: '+ Add item' }));
    fireEvent.change(screen.getByLabelText('Item 1'), { target: { value: '7' } });
    fireEvent.change(screen.getByLabelText('Item 2'), { target: { value: '9' } });
    expect(sent()).toEqual({ ids: [7, 9] });
    fireEvent.click(screen.getByRole('button', { name: 'Remove item 1' }));
    expect(sent()).toEqual({ ids: [9] });
  });

  it('tuple: one input per item with its label, sent as a fixed-length array', () => {
    render(
      <Form
        parameters={[
          {
            name: 'period',
            kind: 'tuple',
            label: 'Period',
            format: 'json',
            items: [
              { kind: 'text', label: 'From' },
              { kind: 'number', label: 'Days' },
            ],
          },
        ]}
      />,
    );
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-03-01' } });
    fireEvent.change(screen.getByLabelText('Days'), { target: { value: '7' } });
    expect(sent()).toEqual({ period: ['2026-03-01', 7] });
  });

  it('sql: a monospace editor with the "inserted as written" warning', () => {
    render(
      <Form
        parameters={[{ name: 'condition', kind: 'sql', label: 'Condition', default: "status = 'paid'" }]}
      />,
    );
    const editor = screen.getByLabelText(/Condition/) as HTMLTextAreaElement;
    expect(editor.tagName).toBe('TEXTAREA');
    expect(editor.className).toContain('mono');
    expect(screen.getByText('Inserted into the SQL as written.')).toBeTruthy();
    expect(sent()).toEqual({ condition: "status = 'paid'" });
  });

  it('json: validated while typing; broken JSON is not sent and is named', () => {
    render(<Form parameters={[{ name: 'payload', kind: 'json', label: 'Payload' }]} />);
    const editor = screen.getByLabelText(/Payload/);
    fireEvent.change(editor, { target: { value: '{"a": 1' } });
    expect(screen.getByText(/^Not valid JSON:/)).toBeTruthy();
    expect(sent()).toEqual({});
    expect(clientErrors().payload.key).toBe('param.invalidJson');
    fireEvent.change(editor, { target: { value: '{"a": [1, true]}' } });
    expect(screen.getByText('Valid JSON')).toBeTruthy();
    expect(sent()).toEqual({ payload: { a: [1, true] } });
  });

  it('file: read as base64 with name and content type, as the API expects', async () => {
    render(<Form parameters={[{ name: 'upload', kind: 'file', label: 'Upload', accept: ['text/csv'] }]} />);
    const input = screen.getByLabelText(/Upload/) as HTMLInputElement;
    expect(input.accept).toBe('text/csv');
    const file = new File(['id,name\n1,Å\n'], 'people.csv', { type: 'text/csv' });
    fireEvent.change(input, { target: { files: [file] } });
    await waitFor(() => expect(sent().upload).toBeDefined());
    const upload = sent().upload as { name: string; contentType: string; contentBase64: string };
    expect(upload.name).toBe('people.csv');
    expect(upload.contentType).toBe('text/csv');
    expect(
      new TextDecoder().decode(Uint8Array.from(atob(upload.contentBase64), (c) => c.charCodeAt(0))),
    ).toBe('id,name\n1,Å\n');
  });

  it('file over the limit is refused before sending', async () => {
    render(<Form parameters={[{ name: 'upload', kind: 'file', label: 'Upload', maxBytes: 4 }]} />);
    fireEvent.change(screen.getByLabelText(/Upload/), { target: { files: [new File(['12345'], 'a.txt')] } });
    await screen.findByText('The file is 5 B; at most 4 B is allowed.');
    expect(sent()).toEqual({});
  });

  it('system: shown read-only, never sent', () => {
    render(
      <Form
        parameters={[{ name: 'who', kind: 'system', label: 'Requested by', value: 'currentUser.email' }]}
      />,
    );
    const input = screen.getByLabelText(/Requested by/) as HTMLInputElement;
    expect(input.readOnly).toBe(true);
    expect(input.value).toBe('ops@example.com');
    expect(sent()).toEqual({});
  });

  it('choices on text and number: a select showing labels, sending typed values', () => {
    render(
      <Form
        parameters={[
          { name: 'sort', kind: 'text', label: 'Sort', choices: [{ value: 'total_yen', label: 'Total' }] },
          {
            name: 'level',
            kind: 'number',
            label: 'Level',
            required: true,
            choices: [{ value: 2, label: 'Two' }],
          },
        ]}
      />,
    );
    const sort = screen.getByLabelText(/Sort/) as HTMLSelectElement;
    expect([...sort.options].map((o) => o.textContent)).toEqual(['(not set)', 'Total']);
    fireEvent.change(sort, { target: { value: 'total_yen' } });
    fireEvent.change(screen.getByLabelText(/Level/), { target: { value: '2' } });
    expect(sent()).toEqual({ sort: 'total_yen', level: 2 });
  });

  it("the API's 422 messages appear next to their inputs and mark them invalid", () => {
    const errors = errorsByParameter([
      { pointer: '#/arguments/limit', detail: "'limit' must be at most 1000." },
      { pointer: '#/arguments/period/1', detail: "'period' item 2 must be a number." },
      { pointer: '#/comment', detail: 'Too long.' },
    ]);
    expect(errors).toEqual({
      limit: "'limit' must be at most 1000.",
      period: "'period' item 2 must be a number.",
      '': 'Too long.',
    });
    render(<Form parameters={[{ name: 'limit', kind: 'number', label: 'Limit' }]} errors={errors} />);
    const input = screen.getByLabelText(/Limit/);
    expect(input.getAttribute('aria-invalid')).toBe('true');
    const message = screen.getByRole('alert');
    expect(message.textContent).toBe("'limit' must be at most 1000.");
    expect(input.getAttribute('aria-describedby')).toContain(message.id);
  });
});
