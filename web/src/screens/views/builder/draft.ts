/** Edits of a visual view's component tree (pure functions; the builder keeps the tree in state). */
import type { ViewComponent, VisualViewDefinition } from '../view-api.ts';

export type ComponentType = ViewComponent['type'];

export const palette: ComponentType[] = [
  'table',
  'detail',
  'form',
  'button',
  'text',
  'markdown',
  'media',
  'input',
  'modal',
  'tabs',
  'grid',
  'chart',
];

export const isContainer = (
  c: ViewComponent,
): c is Extract<ViewComponent, { type: 'grid' | 'tabs' | 'modal' }> =>
  c.type === 'grid' || c.type === 'tabs' || c.type === 'modal';

/** Every component, depth first, with its depth (the outline). */
export function flatten(root: ViewComponent, depth = 0): { component: ViewComponent; depth: number }[] {
  const out = [{ component: root, depth }];
  if (root.type === 'grid' || root.type === 'modal')
    for (const child of root.children) out.push(...flatten(child, depth + 1));
  if (root.type === 'tabs')
    for (const tab of root.tabs) for (const child of tab.children) out.push(...flatten(child, depth + 1));
  return out;
}

export function findComponent(root: ViewComponent, id: string): ViewComponent | undefined {
  return flatten(root).find((entry) => entry.component.id === id)?.component;
}

export function uniqueId(root: ViewComponent, type: string): string {
  const taken = new Set(flatten(root).map((e) => e.component.id));
  for (let i = 1; ; i++) if (!taken.has(`${type}${i}`)) return `${type}${i}`;
}

export function newComponent(type: ComponentType, id: string): ViewComponent {
  switch (type) {
    case 'table':
      return { id, type, sortable: true, filterable: true };
    case 'detail':
      return { id, type };
    case 'form':
      return { id, type, fields: [{ name: 'value', type: 'text' }], submit: [] };
    case 'button':
      return { id, type, label: 'Button', events: [] };
    case 'text':
      return { id, type, content: 'Text' };
    case 'markdown':
      return { id, type, content: '**Markdown**' };
    case 'media':
      return { id, type, url: "'https://example.com/image.png'" };
    case 'tabs':
      return { id, type, tabs: [{ label: 'Tab 1', children: [] }] };
    case 'grid':
      return { id, type, columns: 2, children: [] };
    case 'chart':
      return { id, type, chartType: 'bar', x: 'x', y: ['y'] };
    case 'input':
      return { id, type, inputType: 'text' };
    case 'modal':
      return { id, type, title: 'Details', children: [] };
  }
}

/** Replaces the component `id` by `fn(it)` (undefined removes it) anywhere in the tree. */
export function mapComponent(
  root: ViewComponent,
  id: string,
  fn: (c: ViewComponent) => ViewComponent | undefined,
): ViewComponent {
  const visit = (c: ViewComponent): ViewComponent | undefined => {
    if (c.id === id) return fn(c);
    if (c.type === 'grid' || c.type === 'modal')
      return { ...c, children: c.children.map(visit).filter(Boolean) as ViewComponent[] };
    if (c.type === 'tabs') {
      return {
        ...c,
        tabs: c.tabs.map((tab) => ({
          ...tab,
          children: tab.children.map(visit).filter(Boolean) as ViewComponent[],
        })),
      };
    }
    return c;
  };
  return visit(root) ?? root;
}

/** Adds `child` to a container (to the tab `tabIndex` of tabs). */
export function addChild(
  root: ViewComponent,
  containerId: string,
  child: ViewComponent,
  tabIndex = 0,
): ViewComponent {
  return mapComponent(root, containerId, (c) => {
    if (c.type === 'grid' || c.type === 'modal') return { ...c, children: [...c.children, child] };
    if (c.type === 'tabs') {
      return {
        ...c,
        tabs: c.tabs.map((tab, i) => (i === tabIndex ? { ...tab, children: [...tab.children, child] } : tab)),
      };
    }
    return c;
  });
}

/** Moves a component one place up (-1) or down (+1) among its siblings. */
export function moveComponent(root: ViewComponent, id: string, offset: -1 | 1): ViewComponent {
  const shift = (list: ViewComponent[]) => {
    const i = list.findIndex((c) => c.id === id);
    const j = i + offset;
    if (i < 0 || j < 0 || j >= list.length) return list.map(visit);
    const copy = [...list];
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
    return copy;
  };
  const visit = (c: ViewComponent): ViewComponent => {
    if (c.type === 'grid' || c.type === 'modal') return { ...c, children: shift(c.children) };
    if (c.type === 'tabs')
      return { ...c, tabs: c.tabs.map((tab) => ({ ...tab, children: shift(tab.children) })) };
    return c;
  };
  return visit(root);
}

/** The container that holds `id` (for "add next to the selection"). */
export function parentOf(root: ViewComponent, id: string): ViewComponent | undefined {
  return flatten(root).find(
    ({ component: c }) =>
      ((c.type === 'grid' || c.type === 'modal') && c.children.some((x) => x.id === id)) ||
      (c.type === 'tabs' && c.tabs.some((tab) => tab.children.some((x) => x.id === id))),
  )?.component;
}

export function emptyVisual(): VisualViewDefinition {
  return {
    kind: 'visual',
    parameters: [],
    queries: [],
    layout: { id: 'root', type: 'grid', columns: 1, children: [] },
  };
}

export const starterCode = `import { useAction, Table, Text, args } from 'dogu';

export default function View() {
  const { rows, loading, error } = useAction('list-orders', {});
  if (error) return <Text>{error.message}</Text>;
  return loading ? <Text muted>Loading…</Text> : <Table rows={rows} />;
}
`;

/** `name: expression` per line ⇄ an arguments object (the key ends at the first colon). */
export function argumentsToText(args: Record<string, string> | undefined): string {
  return Object.entries(args ?? {})
    .map(([k, v]) => `${k}: ${v}`)
    .join('\n');
}
export function textToArguments(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const at = line.indexOf(':');
    if (at <= 0) continue;
    const key = line.slice(0, at).trim();
    if (key) out[key] = line.slice(at + 1).trim();
  }
  return out;
}
