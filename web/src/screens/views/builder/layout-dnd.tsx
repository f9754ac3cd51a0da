/**
 * Drag and drop in the visual builder (dnd-kit, decision 0216): components from the palette onto
 * the layout canvas, and components of the canvas to another place, with the pointer or the
 * keyboard (Space picks up, arrow keys move, Space or Enter drops, Escape cancels), each step told
 * to screen readers in the console's language. A drop is one step of the builder's undo history.
 */
import {
  type Announcements,
  type CollisionDetection,
  DndContext,
  type DragEndEvent,
  DragOverlay,
  type DragStartEvent,
  type KeyboardCoordinateGetter,
  KeyboardSensor,
  type Over,
  PointerSensor,
  pointerWithin,
  type UniqueIdentifier,
  useDraggable,
  useDroppable,
  useSensor,
  useSensors,
} from '@dnd-kit/core';
import { sortableKeyboardCoordinates } from '@dnd-kit/sortable';
import { type ReactNode, useMemo, useState } from 'react';
import type { Translate } from '../../../i18n/index.tsx';
import { useT } from '../../../i18n/index.tsx';
import type { ViewComponent } from '../view-api.ts';
import { type ComponentType, findComponent, newComponent, uniqueId } from './draft.ts';
import { childrenOf, insertAt, moveTo, type Place, placeOf, type Slot, sameSlot } from './layout-moves.ts';

/** What a draggable or droppable of the builder is (dnd-kit's `data`). */
export type DragData =
  | { kind: 'palette'; type: ComponentType }
  | { kind: 'component' }
  /** A box (`end`: the strip after its last child, the one the keyboard reaches): the end of the slot. */
  | { kind: 'zone'; slot: Slot; end?: boolean };

export const zoneId = (slot: Slot) => `zone:${slot.containerId}:${slot.tab}`;
const paletteId = (type: ComponentType) => `palette:${type}`;

/** The keys of the keyboard way: Enter stays the buttons' own (select, add to the selection). */
const keyboardCodes = { start: ['Space'], cancel: ['Escape'], end: ['Space', 'Enter'] };

const near = (a: number, b: number) => Math.abs(a - b) < 1.5;
/** How far (px) the dragged box's corner may be from a target's for the keyboard to be over it. */
const keyboardReach = 8;

/**
 * dnd-kit's sortable keyboard coordinates, with two changes for nested boxes. It chooses among the
 * components and the ends of the boxes only: a whole box starts above its first child, so an arrow
 * key would jump to its end too early. And the dragged box always lands on the chosen one's
 * top-left corner: the sortable getter lays it bottom to bottom on a later item of its own list,
 * which for a container would skip everything the container holds on the next arrow key.
 */
const keyboardCoordinates: KeyboardCoordinateGetter = (event, args) => {
  const all = args.context.droppableContainers;
  const reachable = {
    getEnabled: () => all.getEnabled().filter((c) => !isWholeBox(c)),
    get: (id: UniqueIdentifier) => all.get(id),
  } as unknown as typeof all;
  const next = sortableKeyboardCoordinates(event, {
    ...args,
    context: { ...args.context, droppableContainers: reachable },
  });
  const box = args.context.collisionRect;
  if (!next || !box) return next;
  for (const container of reachable.getEnabled()) {
    const rect = args.context.droppableRects.get(container.id);
    if (rect && near(rect.right, next.x + box.width) && near(rect.bottom, next.y + box.height))
      return { x: rect.left, y: rect.top };
  }
  return next;
};

const isWholeBox = (container: { data: { current?: unknown } }) => {
  const data = dataOf(container);
  return data?.kind === 'zone' && !data.end;
};

const dataOf = (item: { data: { current?: unknown } } | null | undefined) =>
  item?.data.current as DragData | undefined;

/** Where a drop on `over` puts the dragged thing (undefined: nowhere it can go). */
export function placeFor(root: ViewComponent, over: Pick<Over, 'id' | 'data'> | null): Place | undefined {
  const data = dataOf(over);
  if (!over || !data) return undefined;
  if (data.kind === 'zone') {
    const list = childrenOf(root, data.slot);
    return list ? { slot: data.slot, index: list.length } : undefined;
  }
  if (data.kind === 'component') return placeOf(root, String(over.id));
  return undefined;
}

/**
 * The innermost droppable under the pointer (a child before the grid that holds it). With the
 * keyboard there is no pointer: the keyboard coordinates lay the dragged box's top-left corner on
 * the component or end strip they chose, so that one is taken.
 */
export const innermostCollision: CollisionDetection = (args) => {
  const area = (id: UniqueIdentifier) => {
    const rect = args.droppableRects.get(id);
    return rect ? rect.width * rect.height : Number.POSITIVE_INFINITY;
  };
  const smallestFirst = <T extends { id: UniqueIdentifier }>(list: T[]) =>
    [...list].sort((a, b) => area(a.id) - area(b.id));
  if (args.pointerCoordinates) return smallestFirst(pointerWithin(args)).slice(0, 1);
  // The keyboard's target: the reachable droppable whose top-left corner is nearest the dragged
  // box's (the same corner, give or take what scrolling moved while the page followed the key).
  const box = args.collisionRect;
  let nearest: { id: UniqueIdentifier; distance: number } | undefined;
  for (const container of args.droppableContainers) {
    const rect = args.droppableRects.get(container.id);
    if (!rect || isWholeBox(container)) continue;
    const distance = Math.hypot(rect.left - box.left, rect.top - box.top);
    if (distance <= keyboardReach && (!nearest || distance < nearest.distance))
      nearest = { id: container.id, distance };
  }
  // None near: a palette item just picked up is over nowhere until an arrow key moves it.
  return nearest ? [{ id: nearest.id, data: { value: nearest.distance } }] : [];
};

/** A box's name for people: "grid root", "tab "First" of pages", "modal details". */
export function slotLabel(t: Translate, container: ViewComponent, tab: number): string {
  if (container.type === 'tabs')
    return t('views.builder.dnd.slot.tab', { id: container.id, label: container.tabs[tab]?.label ?? '' });
  return t(`views.builder.dnd.slot.${container.type === 'modal' ? 'modal' : 'grid'}`, { id: container.id });
}

function wordsFor(t: Translate, root: ViewComponent) {
  const what = (id: UniqueIdentifier, data: DragData | undefined) => {
    if (data?.kind === 'palette')
      return t('views.builder.dnd.newComponent', { type: t(`views.component.${data.type}`) });
    const component = findComponent(root, String(id));
    return component
      ? t('views.builder.dnd.component', { type: t(`views.component.${component.type}`), id: component.id })
      : String(id);
  };
  const slotName = (slot: Slot) => {
    const container = findComponent(root, slot.containerId);
    return container ? slotLabel(t, container, slot.tab) : slot.containerId;
  };
  /** Position and count as they will be after the drop. */
  const where = (activeId: UniqueIdentifier, data: DragData | undefined, place: Place) => {
    const count = childrenOf(root, place.slot)?.length ?? 0;
    const from = data?.kind === 'component' ? placeOf(root, String(activeId)) : undefined;
    const staysInSlot = from !== undefined && sameSlot(from.slot, place.slot);
    const after = staysInSlot ? count : count + 1;
    return { position: Math.min(place.index, after - 1) + 1, count: after, slot: slotName(place.slot) };
  };
  return { what, where };
}

function announcementsFor(t: Translate, root: ViewComponent): Announcements {
  const { what, where } = wordsFor(t, root);
  const line = (
    key: string,
    active: { id: UniqueIdentifier; data: { current?: unknown } },
    over: Over | null,
  ) => {
    const thing = what(active.id, dataOf(active));
    const place = placeFor(root, over);
    if (!place) return undefined;
    return t(key, { what: thing, ...where(active.id, dataOf(active), place) });
  };
  return {
    onDragStart: ({ active }) => t('views.builder.dnd.pickedUp', { what: what(active.id, dataOf(active)) }),
    onDragOver: ({ active, over }) =>
      line('views.builder.dnd.over', active, over) ??
      t('views.builder.dnd.nowhere', { what: what(active.id, dataOf(active)) }),
    onDragEnd: ({ active, over }) =>
      line('views.builder.dnd.dropped', active, over) ??
      t('views.builder.dnd.droppedNowhere', { what: what(active.id, dataOf(active)) }),
    onDragCancel: ({ active }) => t('views.builder.dnd.cancelled', { what: what(active.id, dataOf(active)) }),
  };
}

/**
 * The drag and drop of one builder: wraps the palette and the canvas. `onLayout` receives the new
 * tree and the id to select; it is called once per drop that changes something.
 */
export function LayoutDnd({
  root,
  onLayout,
  children,
}: {
  root: ViewComponent;
  onLayout(layout: ViewComponent, select: string): void;
  children: ReactNode;
}) {
  const t = useT();
  const [dragged, setDragged] = useState<string>();
  const sensors = useSensors(
    // A click (a press that moves less than 6 px) still selects or adds.
    useSensor(PointerSensor, { activationConstraint: { distance: 6 } }),
    // Instant scrolling: with smooth scrolling, a key pressed while the page still scrolls starts
    // from a box between two places and is over nothing.
    useSensor(KeyboardSensor, {
      coordinateGetter: keyboardCoordinates,
      keyboardCodes,
      scrollBehavior: 'auto',
    }),
  );
  const accessibility = useMemo(
    () => ({
      announcements: announcementsFor(t, root),
      screenReaderInstructions: { draggable: t('views.builder.dnd.instructions') },
    }),
    [t, root],
  );

  const onDragStart = ({ active }: DragStartEvent) => {
    const data = dataOf(active);
    setDragged(
      data?.kind === 'palette'
        ? t('views.builder.dnd.newComponent', { type: t(`views.component.${data.type}`) })
        : wordsFor(t, root).what(active.id, data),
    );
  };
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    setDragged(undefined);
    const place = placeFor(root, over);
    const data = dataOf(active);
    if (!place || !data) return;
    if (data.kind === 'palette') {
      const component = newComponent(data.type, uniqueId(root, data.type));
      const next = insertAt(root, place, component);
      if (next !== root) onLayout(next, component.id);
      return;
    }
    const id = String(active.id);
    const next = moveTo(root, id, place);
    if (next !== root) onLayout(next, id);
  };

  return (
    <DndContext
      sensors={sensors}
      collisionDetection={innermostCollision}
      accessibility={accessibility}
      onDragStart={onDragStart}
      onDragEnd={onDragEnd}
      onDragCancel={() => setDragged(undefined)}
    >
      {children}
      <DragOverlay dropAnimation={null}>
        {dragged ? <div className="canvas-drag-overlay">{dragged}</div> : null}
      </DragOverlay>
    </DndContext>
  );
}

/**
 * A palette button: a click (or Enter) adds the component to the selected container, as before;
 * dragging it (or Space, arrows, Space) puts it where it is dropped.
 */
export function PaletteItem({ type, onAdd }: { type: ComponentType; onAdd(): void }) {
  const t = useT();
  const id = paletteId(type);
  const draggable = useDraggable({
    id,
    data: { kind: 'palette', type } satisfies DragData,
    attributes: { roleDescription: t('views.builder.dnd.roleDescription') },
  });
  // The keyboard's coordinates start from the active droppable: the item is one that accepts nothing.
  const droppable = useDroppable({ id, disabled: true });
  return (
    <button
      type="button"
      className={`btn btn-secondary btn-small builder-palette-item${draggable.isDragging ? ' is-dragging' : ''}`}
      ref={(node) => {
        draggable.setNodeRef(node);
        droppable.setNodeRef(node);
      }}
      {...draggable.attributes}
      {...draggable.listeners}
      onClick={onAdd}
    >
      + {t(`views.component.${type}`)}
    </button>
  );
}
