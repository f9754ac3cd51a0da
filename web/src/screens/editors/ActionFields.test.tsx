// @vitest-environment jsdom
/**
 * A kind without an editor of its own is edited from its descriptor: its fields are rendered with
 * their labels, typed values reach the draft's own fields, and the body carries them unchanged.
 */
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { I18nProvider } from '../../i18n/index.tsx';
import { ActionFields } from './ActionFields.tsx';
import { actionBody, actionDraftOf, emptyActionDraft } from './action-draft.ts';
import type { CatalogEntry, FormField } from './connector-kinds.ts';

afterEach(cleanup);

const fields: FormField[] = [
  { name: 'service', type: 'text', label: { en: 'Service', ja: 'サービス' }, required: true },
  { name: 'request', type: 'code', label: { en: 'Request (JSON)', ja: 'リクエスト (JSON)' } },
  {
    name: 'mode',
    type: 'select',
    label: { en: 'Mode', ja: 'モード' },
    options: ['fast', 'safe'],
    default: 'safe',
  },
];

let seen: Record<string, unknown> = {};
function Harness({ language }: { language: 'en' | 'ja' }) {
  const [values, setValues] = useState<Record<string, unknown>>({});
  seen = values;
  return (
    <I18nProvider language={language}>
      <ActionFields
        fields={fields}
        values={values}
        errors={{ service: 'is required' }}
        onChange={(name, value) => setValues((v) => ({ ...v, [name]: value }))}
      />
    </I18nProvider>
  );
}

describe('ActionFields', () => {
  it('renders the descriptor in the chosen language and edits the values', () => {
    render(<Harness language="en" />);
    fireEvent.change(screen.getByLabelText(/^Service/), { target: { value: 'shop.v1.Orders' } });
    fireEvent.change(screen.getByLabelText('Request (JSON)'), { target: { value: '{"id": "{{ id }}"}' } });
    fireEvent.change(screen.getByLabelText('Mode'), { target: { value: 'fast' } });
    expect(seen).toEqual({ service: 'shop.v1.Orders', request: '{"id": "{{ id }}"}', mode: 'fast' });
    expect(screen.getByText('is required')).toBeTruthy();
    cleanup();
    render(<Harness language="ja" />);
    expect(screen.getByLabelText(/^サービス/)).toBeTruthy();
  });

  it('sends another kind’s fields in the body as they are, without SQL or HTTP fields', () => {
    const draft = {
      ...emptyActionDraft(),
      id: 'a',
      name: 'A',
      dataSourceId: 'g',
      kind: 'grpc',
      rest: { service: 's', method: 'M' },
    };
    const result = actionBody(draft);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.body).toMatchObject({ kind: 'grpc', service: 's', method: 'M' });
    expect(result.body.statements).toBeUndefined();
    expect(result.body.path).toBeUndefined();
  });

  it('keeps a stored storage or gRPC action’s own method when it is opened and saved again', () => {
    const stored = {
      id: 'share',
      name: 'Share',
      kind: 'storage',
      dataSourceId: 'files',
      operation: 'signed-url',
      bucket: 'b',
      objectKey: 'k',
      method: 'PUT',
      parameters: [],
    };
    const result = actionBody(actionDraftOf(stored));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.body).toMatchObject({
      kind: 'storage',
      operation: 'signed-url',
      method: 'PUT',
      bucket: 'b',
      objectKey: 'k',
    });
  });

  it('offers the data source’s catalog for a field marked catalog and fills the fields an entry names', async () => {
    const catalogFields: FormField[] = [
      { name: 'service', type: 'text', label: { en: 'Service', ja: 'サービス' } },
      { name: 'method', type: 'text', label: { en: 'Method', ja: 'メソッド' }, catalog: true },
      { name: 'request', type: 'code', label: { en: 'Request (JSON)', ja: 'リクエスト (JSON)' } },
    ];
    const entries: CatalogEntry[] = [
      {
        id: 'shop.v1.OrderService/GetOrder',
        label: 'shop.v1.OrderService/GetOrder',
        fill: { service: 'shop.v1.OrderService', method: 'GetOrder', request: '{\n  "id": ""\n}' },
      },
      {
        id: 'shop.v1.OrderService/ListOrders',
        label: 'shop.v1.OrderService/ListOrders',
        fill: { method: 'ListOrders' },
      },
    ];
    let loads = 0;
    function CatalogHarness() {
      const [values, setValues] = useState<Record<string, unknown>>({ service: 'old' });
      seen = values;
      return (
        <I18nProvider language="en">
          <ActionFields
            fields={catalogFields}
            values={values}
            errors={{}}
            onChange={(name, value) => setValues((v) => ({ ...v, [name]: value }))}
            loadCatalog={async () => {
              loads += 1;
              return entries;
            }}
            onFill={(fill) => setValues((v) => ({ ...v, ...fill }))}
          />
        </I18nProvider>
      );
    }
    render(<CatalogHarness />);
    expect(loads).toBe(0);
    const button = screen.getByRole('button', { name: 'Choose from the data source' });
    expect(button.textContent).toBe('List from the data source');
    fireEvent.click(button);
    const picker = await waitFor(() => screen.getByRole('combobox', { name: 'Choose from the data source' }));
    expect(picker.textContent).toContain('Choose one of 2…');
    expect(loads).toBe(1);
    fireEvent.change(picker, { target: { value: 'shop.v1.OrderService/GetOrder' } });
    expect(seen).toEqual({
      service: 'shop.v1.OrderService',
      method: 'GetOrder',
      request: '{\n  "id": ""\n}',
    });
    expect((screen.getByLabelText('Request (JSON)') as HTMLTextAreaElement).value).toBe('{\n  "id": ""\n}');
  });

  it('shows no picker without a catalog loader', () => {
    render(<Harness language="en" />);
    expect(screen.queryByText('List from the data source')).toBeNull();
  });
});
