/** A `{{ }}` hole's value is text inside Markdown: a database value adds no image, link or heading (issue 25). */
import { describe, expect, it } from 'vitest';
import { renderMarkdownTemplate } from './components/ContentComponents.tsx';

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
