/**
 * axe-core run inside a page of the Chromium suite: the WCAG 2.0/2.1 A and AA rules, and what they
 * found at the impacts that fail the suite (serious and moderate; critical too).
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const axeSource = readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
export const wcagTags = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
/** Best-practice rules the console keeps as well, at any impact: headings in order, landmarks with names of their own, no empty column header. */
export const structureRules = ['heading-order', 'landmark-unique', 'empty-table-header'];
const failing = new Set(['critical', 'serious', 'moderate']);

export interface AxeFinding {
  rule: string;
  impact: string;
  help: string;
  targets: string[];
}

/** The violations of the page as it is now, one line of evidence per rule. */
export async function axeFindings(page: Page): Promise<AxeFinding[]> {
  // Evaluated through the DevTools protocol: the console's CSP does not apply to it.
  if (!(await page.evaluate("'axe' in window"))) await page.evaluate(await axeSource);
  // One run: the WCAG rules, and the structure rules enabled beside them. A string expression:
  // this project's Node type check knows no DOM.
  const options = {
    runOnly: { type: 'tag', values: wcagTags },
    rules: Object.fromEntries(structureRules.map((rule) => [rule, { enabled: true }])),
    resultTypes: ['violations'],
  };
  const found: AxeFinding[] = await page.evaluate(`
    axe.run(document, ${JSON.stringify(options)}).then((result) =>
      result.violations.map((v) => ({
        rule: v.id,
        impact: v.impact,
        help: v.help,
        targets: v.nodes.map((n) => n.target.join(' ')),
      })),
    )`);
  return found.filter((v) => failing.has(v.impact) || structureRules.includes(v.rule));
}
