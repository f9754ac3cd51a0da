// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { I18nProvider } from '../../i18n/index.tsx';
import { MediaView } from './media.tsx';

afterEach(cleanup);

describe('media view', () => {
  it('an HLS stream in a browser without native HLS shows a note with the link, not a broken player', () => {
    const url = 'https://media.example.com/live/stream.m3u8';
    const { container } = render(
      <I18nProvider language="en">
        <MediaView kind="video" src={url} />
      </I18nProvider>,
    );
    expect(container.querySelector('video')).toBeNull();
    expect(screen.getByRole('link', { name: url }).getAttribute('href')).toBe(url);
    expect(container.textContent).toMatch(/HLS stream/);
  });

  it('a WebM clip plays in the native player', () => {
    const url = 'http://127.0.0.1:8787/demo-api/v1/media/sku-0001.webm';
    const { container } = render(
      <I18nProvider language="en">
        <MediaView kind="video" src={url} />
      </I18nProvider>,
    );
    expect(container.querySelector('video')?.getAttribute('src')).toBe(url);
  });
});
