/**
 * The demo's product media, served by the runtime itself (`GET /demo-api/v1/media/{file}`) so the
 * product gallery shows images, videos and PDFs with no network: PNG pictures and PDF product sheets
 * are made here in code, the few-kilobyte WebM clips are committed (local/demo-media/, made by
 * scripts/make-demo-videos.ts).
 */
import { readFile } from 'node:fs/promises';
import { crc32, deflateSync } from 'node:zlib';

export const demoMediaPath = '/demo-api/v1/media';

interface DemoProduct {
  sku: string;
  name: string;
  priceYen: number;
  colour: [number, number, number];
  video: boolean;
}

export const demoProducts: readonly DemoProduct[] = [
  { sku: 'SKU-0001', priceYen: 480, name: 'Notebook', colour: [37, 87, 214], video: true },
  { sku: 'SKU-0002', priceYen: 150, name: 'Pen', colour: [197, 48, 48], video: false },
  { sku: 'SKU-0003', priceYen: 1200, name: 'Tote bag', colour: [47, 133, 90], video: true },
  { sku: 'SKU-0004', priceYen: 900, name: 'Mug', colour: [107, 70, 193], video: false },
  { sku: 'SKU-0005', priceYen: 4800, name: 'Desk lamp', colour: [183, 121, 31], video: true },
];

export const mediaFileOf = (sku: string, extension: 'png' | 'webm' | 'pdf') =>
  `${sku.toLowerCase()}.${extension}`;

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A 320×200 picture in the product's colour with a lighter band, so thumbnails tell products apart. */
export function productPng([r, g, b]: [number, number, number], width = 320, height = 200): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.writeUInt8(8, 8); // bit depth
  header.writeUInt8(2, 9); // truecolour
  const light = [r, g, b].map((c) => Math.round(c + (255 - c) * 0.6));
  const rowOf = (colour: number[]) =>
    Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => colour).flat())]);
  const plain = rowOf([r, g, b]);
  const band = rowOf(light);
  const rows = Array.from({ length: height }, (_, y) =>
    y > height * 0.4 && y < height * 0.6 ? band : plain,
  );
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(Buffer.concat(rows))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A one-page PDF product sheet (PDF 1.4, Helvetica, byte offsets computed). */
export function productSheetPdf(product: Pick<DemoProduct, 'sku' | 'name'>): Buffer {
  const pdfText = (text: string) => text.replace(/[\\()]/g, (c) => `\\${c}`);
  const content = [
    'BT /F1 24 Tf 72 760 Td',
    `(${pdfText(product.name)}) Tj`,
    '0 -32 Td /F1 12 Tf',
    `(${pdfText(`Product sheet ${product.sku} - Dogu demo`)}) Tj`,
    'ET',
  ].join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${Buffer.byteLength(content)} >>\nstream\n${content}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let pdf = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, index) => {
    offsets.push(Buffer.byteLength(pdf));
    pdf += `${index + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(pdf);
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  pdf += offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('');
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, 'latin1');
}

const contentTypes = { png: 'image/png', webm: 'video/webm', pdf: 'application/pdf' } as const;

/** The file for a media name, or undefined when the demo has no such file. */
export async function demoMediaFile(
  name: string,
): Promise<{ contentType: string; body: Buffer } | undefined> {
  const match = /^(sku-\d{4})\.(png|webm|pdf)$/.exec(name);
  if (!match) return undefined;
  const [, stem, extension] = match as unknown as [string, string, keyof typeof contentTypes];
  const product = demoProducts.find((p) => p.sku.toLowerCase() === stem);
  if (!product) return undefined;
  const contentType = contentTypes[extension];
  if (extension === 'png') return { contentType, body: productPng(product.colour) };
  if (extension === 'pdf') return { contentType, body: productSheetPdf(product) };
  if (!product.video) return undefined;
  const body = await readFile(new URL(`./demo-media/${name}`, import.meta.url));
  return { contentType, body };
}
