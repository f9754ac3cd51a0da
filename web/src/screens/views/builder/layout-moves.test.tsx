/**
 * The tree edits behind drag and drop (places, moves within a list and between containers, what is
 * refused) and the collision rule that picks the innermost box under the pointer, or the box the
 * keyboard's coordinates were laid on.
 */
import type { ClientRect, DroppableContainer } from '@dnd-kit/core';
import { describe, expect, it } from 'vitest';
import type { ViewComponent } from '../view-api.ts';
import { findComponent } from './draft.ts';
import { innermostCollision, placeFor } from './layout-dnd.tsx';
import { insertAt, isWithin, moveTo, placeOf } from './layout-moves.ts';

const root: ViewComponent = {
  id: 'root',
  type: 'grid',
  columns: 1,
  children: [
    { id: 'a', type: 'text', content: 'A' },
    { id: 'g', type: 'grid', columns: 2, children: [{ id: 'b', type: 'text', content: 'B' }] },
    {
      id: 't',
      type: 'tabs',
      tabs: [
        { label: 'One', children: [] },
        { label: 'Two', children: [] },
      ],
    },
    { id: 'm', type: 'modal', title: 'M', children: [] },
  ],
};
const ids = (list: ViewComponent[]) => list.map((c) => c.id);
const kids = (tree: ViewComponent, id: string) => {
  const found = findComponent(tree, id);
  if (!found) throw new Error(`no component ${id}`);
  return found;
};

describe('places and moves in the component tree', () => {
  it('finds where a component is', () => {
    expect(placeOf(root, 'g')).toEqual({ slot: { containerId: 'root', tab: 0 }, index: 1 });
    expect(placeOf(root, 'b')).toEqual({ slot: { containerId: 'g', tab: 0 }, index: 0 });
    expect(placeOf(root, 'root')).toBeUndefined();
    expect(isWithin(root, 'g', 'b')).toBe(true);
    expect(isWithin(root, 'g', 'a')).toBe(false);
  });

  it('moves within a list as arrayMove does, and changes nothing when dropped in place', () => {
    const down = moveTo(root, 'a', { slot: { containerId: 'root', tab: 0 }, index: 2 });
    expect(ids((down as { children: ViewComponent[] }).children)).toEqual(['g', 't', 'a', 'm']);
    const up = moveTo(root, 'm', { slot: { containerId: 'root', tab: 0 }, index: 0 });
    expect(ids((up as { children: ViewComponent[] }).children)).toEqual(['m', 'a', 'g', 't']);
    expect(moveTo(root, 'g', { slot: { containerId: 'root', tab: 0 }, index: 1 })).toBe(root);
    // "At the end" of its own list, when it is already last.
    expect(moveTo(root, 'm', { slot: { containerId: 'root', tab: 0 }, index: 4 })).toBe(root);
  });

  it('moves between containers: into a tab, into a modal, out of a grid', () => {
    const inTab = moveTo(root, 'a', { slot: { containerId: 't', tab: 1 }, index: 0 });
    const tabs = kids(inTab, 't') as Extract<ViewComponent, { type: 'tabs' }>;
    expect(tabs.tabs.map((x) => ids(x.children))).toEqual([[], ['a']]);
    expect(ids((inTab as { children: ViewComponent[] }).children)).toEqual(['g', 't', 'm']);
    const inModal = moveTo(root, 'b', { slot: { containerId: 'm', tab: 0 }, index: 0 });
    expect(ids((kids(inModal, 'm') as { children: ViewComponent[] }).children)).toEqual(['b']);
    expect(ids((kids(inModal, 'g') as { children: ViewComponent[] }).children)).toEqual([]);
  });

  it('refuses a container into itself or its own children, the root, and slots that do not exist', () => {
    expect(moveTo(root, 'g', { slot: { containerId: 'g', tab: 0 }, index: 0 })).toBe(root);
    const nested = insertAt(
      root,
      { slot: { containerId: 'g', tab: 0 }, index: 1 },
      {
        id: 'inner',
        type: 'grid',
        columns: 1,
        children: [],
      },
    );
    expect(moveTo(nested, 'g', { slot: { containerId: 'inner', tab: 0 }, index: 0 })).toBe(nested);
    expect(moveTo(root, 'root', { slot: { containerId: 'm', tab: 0 }, index: 0 })).toBe(root);
    expect(moveTo(root, 'a', { slot: { containerId: 't', tab: 5 }, index: 0 })).toBe(root);
    expect(moveTo(root, 'a', { slot: { containerId: 'b', tab: 0 }, index: 0 })).toBe(root);
    expect(
      insertAt(
        root,
        { slot: { containerId: 'a', tab: 0 }, index: 0 },
        { id: 'x', type: 'text', content: '' },
      ),
    ).toBe(root);
  });

  it('reads a drop on a box as its end, and a drop on a component as its place', () => {
    const zone = { id: 'zone:t:1', data: { current: { kind: 'zone', slot: { containerId: 't', tab: 1 } } } };
    expect(placeFor(root, zone)).toEqual({ slot: { containerId: 't', tab: 1 }, index: 0 });
    const onGrid = { id: 'g', data: { current: { kind: 'component' } } };
    expect(placeFor(root, onGrid)).toEqual({ slot: { containerId: 'root', tab: 0 }, index: 1 });
    expect(placeFor(root, null)).toBeUndefined();
  });
});

describe('which box a drag is over', () => {
  const rect = (left: number, top: number, width: number, height: number): ClientRect => ({
    left,
    top,
    width,
    height,
    right: left + width,
    bottom: top + height,
  });
  // The layout's box holds the grid g, whose box holds b.
  const rects = new Map<string, ClientRect>([
    ['zone:root:0', rect(0, 0, 400, 400)],
    ['g', rect(10, 10, 380, 200)],
    ['zone:g:0', rect(20, 40, 360, 160)],
    ['b', rect(30, 50, 160, 30)],
  ]);
  const containers = [...rects.keys()].map((id) => {
    const [, containerId] = id.split(':');
    const data = id.startsWith('zone:')
      ? { kind: 'zone', slot: { containerId, tab: 0 } }
      : { kind: 'component' };
    return { id, data: { current: data } } as unknown as DroppableContainer;
  });
  const args = (pointer: { x: number; y: number } | null, box: ClientRect = rect(0, 0, 50, 20)) => ({
    active: { id: 'x', data: { current: undefined }, rect: { current: { initial: null, translated: null } } },
    collisionRect: box,
    droppableRects: rects as Map<string | number, ClientRect>,
    droppableContainers: containers,
    pointerCoordinates: pointer,
  });
  const first = (result: { id: unknown }[]) => result[0]?.id;

  it('takes the innermost box under the pointer', () => {
    expect(first(innermostCollision(args({ x: 40, y: 60 }) as never))).toBe('b');
    expect(first(innermostCollision(args({ x: 300, y: 150 }) as never))).toBe('zone:g:0');
    expect(first(innermostCollision(args({ x: 300, y: 20 }) as never))).toBe('g');
    expect(first(innermostCollision(args({ x: 300, y: 390 }) as never))).toBe('zone:root:0');
    expect(innermostCollision(args({ x: 500, y: 500 }) as never)).toEqual([]);
  });

  it('takes the component or end strip the keyboard laid the dragged box on, never a whole box, else none', () => {
    expect(first(innermostCollision(args(null, rect(30, 50, 50, 20)) as never))).toBe('b');
    // A few pixels off (the page scrolled to follow the key): still that one.
    expect(first(innermostCollision(args(null, rect(33, 46, 50, 20)) as never))).toBe('b');
    // The whole box g:0 starts at (20, 40): the keyboard never targets it, and nothing else is near.
    expect(innermostCollision(args(null, rect(20, 40, 50, 20)) as never)).toEqual([]);
    expect(innermostCollision(args(null, rect(140, 60, 50, 20)) as never)).toEqual([]);
  });
});
