import { describe, expect, it } from 'vitest';
import { annotateMediaColumns, detectMedia, videoStreamingDomains } from '../../shared/domain/media.ts';
import type { Column, MediaKind } from '../../shared/domain/model.ts';

describe('detectMedia', () => {
  const cases: [value: unknown, expected: MediaKind | undefined][] = [
    // images, by extension
    ['https://cdn.example.com/a/b/photo.png', 'image'],
    ['http://example.com/photo.JPG', 'image'],
    ['https://example.com/p.jpeg', 'image'],
    ['https://example.com/p.gif', 'image'],
    ['https://example.com/p.webp', 'image'],
    ['https://example.com/logo.svg', 'image'],
    ['https://example.com/p.bmp', 'image'],
    ['https://example.com/p.avif', 'image'],
    ['https://example.com/favicon.ico', 'image'],
    // videos, by extension
    ['https://example.com/clip.mp4', 'video'],
    ['https://example.com/live/index.m3u8', 'video'],
    ['https://example.com/clip.webm', 'video'],
    ['https://example.com/clip.MOV', 'video'],
    ['https://example.com/clip.m4v', 'video'],
    ['https://example.com/clip.ogv', 'video'],
    // PDF
    ['https://example.com/docs/invoice.pdf', 'pdf'],
    // the query and the fragment are not the path
    ['https://example.com/photo.png?width=200&v=2', 'image'],
    ['https://example.com/photo.png#top', 'image'],
    ['https://example.com/render?format=png', undefined],
    ['https://example.com/page#clip.mp4', undefined],
    ['https://example.com/download?file=a.pdf', undefined],
    // video-streaming domains, with any path
    ['https://www.youtube.com/watch?v=dQw4w9WgXcQ', 'video'],
    ['https://youtube.com/shorts/abc', 'video'],
    ['https://m.youtube.com/watch?v=x', 'video'],
    ['https://youtu.be/dQw4w9WgXcQ', 'video'],
    ['https://vimeo.com/123456', 'video'],
    ['https://player.vimeo.com/video/123456', 'video'],
    ['https://www.dailymotion.com/video/x7', 'video'],
    ['https://www.twitch.tv/somechannel', 'video'],
    ['https://WWW.YOUTUBE.COM/watch?v=x', 'video'],
    // an extension wins over the domain
    ['https://www.youtube.com/thumbnail.jpg', 'image'],
    // look-alike domains are not the streaming site
    ['https://notyoutube.com/watch?v=x', undefined],
    ['https://youtube.com.evil.example/watch', undefined],
    // not http(s) or not a URL
    ['ftp://example.com/photo.png', undefined],
    ['file:///tmp/photo.png', undefined],
    ['data:image/png;base64,AAAA', undefined],
    ['javascript:alert(1)//.png', undefined],
    ['photo.png', undefined],
    ['/images/photo.png', undefined],
    ['see https://example.com/photo.png', undefined],
    ['https://', undefined],
    ['', undefined],
    // plain pages and unknown extensions
    ['https://example.com/', undefined],
    ['https://example.com/index.html', undefined],
    ['https://example.com/archive.zip', undefined],
    ['https://example.com/png', undefined],
    // not strings
    [42, undefined],
    [null, undefined],
    [undefined, undefined],
    [{ url: 'https://example.com/a.png' }, undefined],
  ];

  it.each(cases)('%j → %s', (value, expected) => {
    expect(detectMedia(value)).toBe(expected);
  });

  it('lists the streaming domains it knows', () => {
    expect(videoStreamingDomains).toEqual(expect.arrayContaining(['youtube.com', 'youtu.be', 'vimeo.com']));
  });
});

describe('annotateMediaColumns', () => {
  const columns: Column[] = [
    { name: 'id', type: 'number' },
    { name: 'photo', type: 'string' },
    { name: 'trailer', type: 'string' },
    { name: 'mixed', type: 'string' },
    { name: 'name', type: 'string' },
    { name: 'empty', type: 'string' },
    { name: 'doc', type: 'json' },
  ];
  const rows = [
    {
      id: 1,
      photo: 'https://example.com/1.png',
      trailer: 'https://youtu.be/a',
      mixed: 'https://example.com/1.png',
      name: 'Ann',
      empty: null,
      doc: 'https://example.com/x.png',
    },
    {
      id: 2,
      photo: '',
      trailer: 'https://example.com/b.mp4',
      mixed: 'https://example.com/b.mp4',
      name: 'Bob',
      empty: '',
      doc: 'https://example.com/y.png',
    },
    {
      id: 3,
      photo: null,
      trailer: 'https://vimeo.com/1',
      mixed: 'https://example.com/c.pdf',
      name: 'https://example.com/c.png',
      empty: null,
      doc: null,
    },
  ];

  it('marks string columns whose non-empty values are all media of one kind, and only those', () => {
    expect(annotateMediaColumns(columns, rows)).toEqual([
      { name: 'id', type: 'number' },
      { name: 'photo', type: 'string', media: 'image' },
      { name: 'trailer', type: 'string', media: 'video' },
      { name: 'mixed', type: 'string' },
      { name: 'name', type: 'string' },
      { name: 'empty', type: 'string' },
      { name: 'doc', type: 'json' },
    ]);
  });

  it('leaves the given columns untouched', () => {
    const before = structuredClone(columns);
    annotateMediaColumns(columns, rows);
    expect(columns).toEqual(before);
  });

  it('marks nothing without rows', () => {
    expect(annotateMediaColumns(columns, [])).toEqual(columns);
  });
});
