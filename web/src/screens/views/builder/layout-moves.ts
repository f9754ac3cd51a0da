/**
 * Where components sit in a visual view's tree and how drag and drop moves them (pure functions).
 * A slot is one list of children: a grid's or a modal's, or one tab of a tabs component.
 */
import type { ViewComponent } from '../view-api.ts';
import { findComponent, flatten, mapComponent } from './draft.ts';

export interface Slot {
  containerId: string;
  /** The tab of a tabs component; 0 for grids and modals. */
  tab: number;
}

/** A place in the tree: before the child at `index` of `slot` (`index` = length: at the end). */
export interface Place {
  slot: Slot;
  index: number;
}

/** The children of a container's slot `tab` (0 for grids and modals), undefined when there is none. */
export function childrenIn(container: ViewComponent, tab: number): ViewComponent[] | undefined {
  if (container.type === 'grid' || container.type === 'modal')
    return tab === 0 ? container.children : undefined;
  if (container.type === 'tabs') return container.tabs[tab]?.children;
  return undefined;
}

/** The children of a slot, or undefined when the slot does not exist. */
export function childrenOf(root: ViewComponent, slot: Slot): ViewComponent[] | undefined {
  const container = findComponent(root, slot.containerId);
  return container ? childrenIn(container, slot.tab) : undefined;
}

/** The slots a component offers to children (none for a component that is not a container). */
export function slotsOf(component: ViewComponent): Slot[] {
  if (component.type === 'grid' || component.type === 'modal') return [{ containerId: component.id, tab: 0 }];
  if (component.type === 'tabs') return component.tabs.map((_, tab) => ({ containerId: component.id, tab }));
  return [];
}

/** Where the component `id` is now (undefined for the root or an unknown id). */
export function placeOf(root: ViewComponent, id: string): Place | undefined {
  for (const { component } of flatten(root)) {
    for (const slot of slotsOf(component)) {
      const index = childrenOf(root, slot)?.findIndex((c) => c.id === id) ?? -1;
      if (index >= 0) return { slot, index };
    }
  }
  return undefined;
}

/** True when `id` is `ancestorId` or lies anywhere inside it. */
export function isWithin(root: ViewComponent, ancestorId: string, id: string): boolean {
  const ancestor = findComponent(root, ancestorId);
  return ancestor ? flatten(ancestor).some(({ component }) => component.id === id) : false;
}

function withChildren(root: ViewComponent, slot: Slot, fn: (list: ViewComponent[]) => ViewComponent[]) {
  return mapComponent(root, slot.containerId, (c) => {
    if (c.type === 'grid' || c.type === 'modal') return { ...c, children: fn(c.children) };
    if (c.type === 'tabs')
      return { ...c, tabs: c.tabs.map((t, i) => (i === slot.tab ? { ...t, children: fn(t.children) } : t)) };
    return c;
  });
}

/** Puts a new component at `place` (clamped to the slot's length). */
export function insertAt(root: ViewComponent, place: Place, component: ViewComponent): ViewComponent {
  if (!childrenOf(root, place.slot)) return root;
  return withChildren(root, place.slot, (list) => {
    const copy = [...list];
    copy.splice(Math.max(0, Math.min(place.index, list.length)), 0, component);
    return copy;
  });
}

/**
 * Moves the component `id` so that it ends up at `place`, where `place.index` counts the slot's
 * children as they are after the component left its old place (as `arrayMove` does within one
 * list). Moving a container into itself, the root, or to where it already is changes nothing (the
 * same tree is answered, so nothing is recorded in the history).
 */
export function moveTo(root: ViewComponent, id: string, place: Place): ViewComponent {
  const from = placeOf(root, id);
  const component = findComponent(root, id);
  if (!from || !component || isWithin(root, id, place.slot.containerId)) return root;
  const target = childrenOf(root, place.slot);
  if (!target) return root;
  const last = sameSlot(from.slot, place.slot) ? target.length - 1 : target.length;
  if (sameSlot(from.slot, place.slot) && from.index === Math.min(place.index, last)) return root;
  const without = withChildren(root, from.slot, (list) => list.filter((c) => c.id !== id));
  return insertAt(without, place, component);
}

export const sameSlot = (a: Slot, b: Slot) => a.containerId === b.containerId && a.tab === b.tab;
