// @vitest-environment jsdom
/**
 * A dialog is drawn at the end of <body>, not inside the box that opened it: a media cell's dialog
 * opened from the result table (a `contain: strict` scroller) was positioned and clipped by it.
 */
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { I18nProvider } from '../i18n/index.tsx';
import { Dialog } from './Dialog.tsx';

afterEach(cleanup);

describe('Dialog', () => {
  it('is not inside the element that rendered it', () => {
    render(
      <I18nProvider language="en">
        <div className="data-table" style={{ contain: 'strict' }}>
          <Dialog open title="Image" onCancel={() => {}}>
            picture
          </Dialog>
        </div>
      </I18nProvider>,
    );
    const dialog = screen.getByRole('dialog', { name: 'Image' });
    expect(dialog.closest('.data-table')).toBeNull();
    expect(dialog.parentElement?.parentElement).toBe(document.body);
  });
});
