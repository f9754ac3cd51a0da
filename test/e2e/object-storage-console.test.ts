/**
 * Object storage in the console (real Chromium, embedded runtime, s3rver on 127.0.0.1): a file
 * chosen with the file picker (its size shown) is uploaded, the listing shows human sizes and
 * dates, an image download is shown with a download button, a signed URL comes with a copy button.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type S3Server, startS3Server } from '../connectors/s3/s3-server.ts';
import { apiClient } from '../support/api.ts';
import { loginToken } from '../support/runtime.ts';
import { type ConsoleUnderTest, login, screenshot, startConsole } from './support/browser.ts';

let console_: ConsoleUnderTest;
let page: Page;
let s3: S3Server;
const base = '/p/demo/e/development';
const png = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

beforeAll(async () => {
  s3 = await startS3Server(['console-files']);
  console_ = await startConsole();
  const api = apiClient(console_.runtime, await loginToken(console_.runtime));
  const project = '/api/v1/projects/demo';
  const saved = await api.put(`${project}/data-sources/files`, {
    id: 'files',
    name: 'Files',
    kind: 's3',
    environments: {
      development: {
        region: 'us-east-1',
        accessKeyId: 'S3RVER',
        secretAccessKey: 'S3RVER',
        endpoint: s3.endpoint,
        forcePathStyle: true,
      },
    },
  });
  expect(saved.status, JSON.stringify(saved.body)).toBe(201);
  const action = (id: string, name: string, fields: Record<string, unknown>) =>
    api.put(`${project}/actions/${id}`, {
      id,
      name,
      kind: 'storage',
      dataSourceId: 'files',
      bucket: 'console-files',
      ...fields,
    });
  for (const response of await Promise.all([
    action('upload-file', 'Upload file', {
      operation: 'upload',
      objectKey: 'console/{{ fileName }}',
      fileParameter: 'content',
      parameters: [
        { name: 'fileName', kind: 'text', required: true },
        { name: 'content', kind: 'file', required: true },
      ],
    }),
    action('list-files', 'List files', { operation: 'list', objectKey: 'console/' }),
    action('show-logo', 'Show logo', { operation: 'download', objectKey: 'console/logo.png' }),
    action('share-logo', 'Share logo', { operation: 'signed-url', objectKey: 'console/logo.png' }),
  ]))
    expect(response.status, JSON.stringify(response.body)).toBe(201);
  page = await console_.newPage();
  await login(page);
}, 180_000);

afterAll(async () => {
  await console_?.close();
  await s3?.stop();
});

describe('object storage in the console (Chromium)', () => {
  it('uploads a chosen file, lists it with its size and date, shows and shares it', async () => {
    await page.goto(`${base}/actions/upload-file`);
    await page.locator('input[name="fileName"]').fill('logo.png');
    await page
      .locator('input[type="file"]')
      .setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: png });
    await page.getByText(`logo.png · image/png · ${png.length} B`).waitFor();
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    // Dogu cannot see that it only reads (gRPC) / an upload changes data: the console asks first.
    await page.getByRole('dialog').getByRole('button', { name: 'Run and change data' }).click();
    const uploaded = page.getByRole('table', { name: 'Upload file' });
    await uploaded.waitFor();
    expect(await uploaded.locator('tbody tr').first().textContent()).toContain('console/logo.png');

    await page.goto(`${base}/actions/list-files`);
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    const listing = page.getByRole('table', { name: 'List files' });
    await listing.waitFor();
    const cells = await listing.locator('tbody tr').first().locator('td').allTextContents();
    expect(cells[0]).toBe('console/logo.png');
    expect(cells[1]).toMatch(/\d{2}:\d{2}/);
    expect(cells[2]).toBe(`${png.length} B`);
    await screenshot(page, 'object-storage-list', { fullPage: true });

    await page.goto(`${base}/actions/show-logo`);
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await page.getByRole('button', { name: 'Download logo.png' }).waitFor();
    expect(await page.locator('img[src^="data:image/png;base64,"]').count()).toBeGreaterThan(0);

    await page.goto(`${base}/actions/share-logo`);
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await page.getByRole('button', { name: 'Copy URL' }).waitFor();
    const url = await page.getByLabel('Signed URL').inputValue();
    expect((await fetch(url)).status).toBe(200);
    await page.getByText(/^Works until/).waitFor();
  });
});
