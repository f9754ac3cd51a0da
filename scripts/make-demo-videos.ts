/**
 * Makes the demo's tiny product videos (local/demo-media/*.webm, committed) so the demo plays video
 * with no network: Chromium records a canvas animation with MediaRecorder. Run again only to change
 * them: `node --import tsx scripts/make-demo-videos.ts`.
 */
import { writeFile } from 'node:fs/promises';
import { chromium } from 'playwright-core';

const videos = [
  { file: 'sku-0003.webm', label: 'Tote bag', colour: '#2f855a' },
  { file: 'sku-0005.webm', label: 'Desk lamp', colour: '#b7791f' },
  { file: 'sku-0001.webm', label: 'Notebook', colour: '#2557d6' },
];

const record = (label: string, colour: string) => `(async () => {
  const canvas = document.createElement('canvas');
  canvas.width = 240; canvas.height = 136;
  const g = canvas.getContext('2d');
  const stream = canvas.captureStream(12);
  const recorder = new MediaRecorder(stream, { mimeType: 'video/webm;codecs=vp8', videoBitsPerSecond: 60000 });
  const chunks = [];
  recorder.ondataavailable = (e) => chunks.push(e.data);
  const done = new Promise((resolve) => { recorder.onstop = resolve; });
  recorder.start();
  const started = performance.now();
  await new Promise((resolve) => {
    const frame = () => {
      const t = (performance.now() - started) / 2000;
      g.fillStyle = ${JSON.stringify(colour)}; g.fillRect(0, 0, 240, 136);
      g.fillStyle = '#ffffff'; g.font = 'bold 22px sans-serif'; g.fillText(${JSON.stringify(label)}, 16, 40);
      g.fillRect(16 + t * 180, 80, 28, 28);
      if (t < 1) requestAnimationFrame(frame); else resolve();
    };
    frame();
  });
  recorder.stop();
  await done;
  const bytes = new Uint8Array(await new Blob(chunks).arrayBuffer());
  return Array.from(bytes);
})()`;

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu'],
});
try {
  const page = await browser.newPage();
  for (const video of videos) {
    const bytes = await page.evaluate<number[]>(record(video.label, video.colour));
    await writeFile(new URL(`../local/demo-media/${video.file}`, import.meta.url), Buffer.from(bytes));
    console.log(`${video.file}: ${bytes.length} bytes`);
  }
} finally {
  await browser.close();
}
