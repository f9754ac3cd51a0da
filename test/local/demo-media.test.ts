/**
 * The demo's media made locally: real PNG and PDF files, committed WebM clips, nothing for names
 * the demo does not have; and a demo database made before the media were local (internet URLs in
 * `products`) gets the file names on its next start, once.
 */
import { inflateSync } from 'node:zlib';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureDemoSchema } from '../../local/demo-database.ts';
import { demoMediaFile } from '../../local/demo-media.ts';
import { createTestDatabase, type TestDatabase } from '../support/postgres.ts';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase('dogu_media');
});
afterAll(async () => {
  await database?.drop();
});

describe('demo media files', () => {
  it('a product picture is a 320×200 PNG whose pixels decode', async () => {
    const file = (await demoMediaFile('sku-0002.png'))!;
    expect(file.contentType).toBe('image/png');
    const png = file.body;
    expect(png.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([320, 200]);
    const dataLength = png.readUInt32BE(33);
    expect(png.subarray(37, 41).toString('latin1')).toBe('IDAT');
    const pixels = inflateSync(png.subarray(41, 41 + dataLength));
    expect(pixels.length).toBe(200 * (1 + 320 * 3));
  });

  it('a product sheet is a PDF whose cross-reference offsets point at its objects', async () => {
    const file = (await demoMediaFile('sku-0005.pdf'))!;
    expect(file.contentType).toBe('application/pdf');
    const text = file.body.toString('latin1');
    expect(text.startsWith('%PDF-1.4\n')).toBe(true);
    expect(text).toContain('(Desk lamp) Tj');
    const offsets = [...text.matchAll(/^(\d{10}) 00000 n $/gm)].map((m) => Number(m[1]));
    expect(offsets).toHaveLength(5);
    offsets.forEach((offset, index) => {
      expect(text.slice(offset, offset + 8)).toBe(`${index + 1} 0 obj\n`);
    });
    const startxref = Number(/startxref\n(\d+)\n/.exec(text)![1]);
    expect(text.slice(startxref, startxref + 4)).toBe('xref');
  });

  it('clips exist for products with a video only; other names are not served', async () => {
    const clip = (await demoMediaFile('sku-0003.webm'))!;
    expect(clip.contentType).toBe('video/webm');
    expect(clip.body.subarray(0, 4).toString('hex')).toBe('1a45dfa3');
    for (const name of [
      'sku-0002.webm',
      'sku-0009.png',
      '../demo-media.ts',
      'SKU-0001.PNG',
      'sku-0001.png.exe',
    ]) {
      expect(await demoMediaFile(name), name).toBeUndefined();
    }
  });
});

describe('demo database made before local media', () => {
  it('gets the file names next to its internet URLs, once', async () => {
    const client = new pg.Client(database.connection);
    await client.connect();
    try {
      await client.query(`CREATE TABLE orders (id int);
        CREATE TABLE products (id serial PRIMARY KEY, sku text NOT NULL UNIQUE, name text NOT NULL,
          price_yen integer NOT NULL, image_url text NOT NULL, video_url text);
        INSERT INTO products (sku, name, price_yen, image_url, video_url) VALUES
          ('SKU-0001', 'Notebook', 480, 'https://placehold.co/320x200.png?text=Notebook', 'https://test-streams.mux.dev/x.m3u8'),
          ('SKU-0002', 'Pen', 150, 'https://placehold.co/320x200.png?text=Pen', NULL);`);
      await ensureDemoSchema(database.connection);
      await ensureDemoSchema(database.connection);
      const { rows } = await client.query(
        'SELECT sku, image_file, video_file, sheet_file FROM products ORDER BY id',
      );
      expect(rows).toEqual([
        {
          sku: 'SKU-0001',
          image_file: 'sku-0001.png',
          video_file: 'sku-0001.webm',
          sheet_file: 'sku-0001.pdf',
        },
        { sku: 'SKU-0002', image_file: 'sku-0002.png', video_file: null, sheet_file: 'sku-0002.pdf' },
      ]);
    } finally {
      await client.end();
    }
  });
});
