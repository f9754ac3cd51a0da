/**
 * The layout canvas: the view's component tree as nested boxes, a grid's children in its columns,
 * each tab and each modal or drawer a box of its own. A component is selected by a click (or
 * Enter) and moved by dragging it (or Space, arrows, Space); components from the palette are
 * dropped into any box. The drag and drop itself is layout-dnd.tsx.
 */
import { useDndContext, useDroppable } from '@dnd-kit/core';
import {
  rectSortingStrategy,
  SortableContext,
  useSortable,
  verticalListSortingStrategy,
} from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import type { CSSProperties } from 'react';
import { useT } from '../../../i18n/index.tsx';
import type { ViewComponent } from '../view-api.ts';
import { findComponent, flatten } from './draft.ts';
import type { DragData } from './layout-dnd.tsx';
import { slotLabel, zoneId } from './layout-dnd.tsx';
import { childrenIn, type Slot, slotsOf } from './layout-moves.ts';

interface CanvasProps {
  root: ViewComponent;
  selected: string;
  onSelect(id: string): void;
}

/** Ids that accept no drop while `activeId` is dragged: the component itself and what it holds. */
function movingIds(root: ViewComponent, activeId: string | undefined): Set<string> {
  const active = activeId ? findComponent(root, activeId) : undefined;
  return new Set(active ? flatten(active).map(({ component }) => component.id) : []);
}

export function LayoutCanvas({ root, selected, onSelect }: CanvasProps) {
  const t = useT();
  const { active } = useDndContext();
  const moving = movingIds(root, active ? String(active.id) : undefined);
  const shared = { root, selected, onSelect, moving, activeId: active ? String(active.id) : undefined };
  return (
    <ul className="canvas-tree" aria-label={t('views.builder.outline')}>
      <li className="canvas-item canvas-root">
        <ComponentHead component={root} selected={selected === root.id} onSelect={onSelect} />
        <Zones component={root} {...shared} />
      </li>
    </ul>
  );
}

interface Shared extends CanvasProps {
  moving: Set<string>;
  activeId: string | undefined;
}

function ComponentHead({
  component,
  selected,
  onSelect,
}: {
  component: ViewComponent;
  selected: boolean;
  onSelect(id: string): void;
}) {
  const t = useT();
  return (
    <button
      type="button"
      className={`canvas-head${selected ? ' is-selected' : ''}`}
      aria-pressed={selected}
      onClick={() => onSelect(component.id)}
    >
      {t(`views.component.${component.type}`)} <span className="mono muted">{component.id}</span>
    </button>
  );
}

function Zones({ component, ...shared }: Shared & { component: ViewComponent }) {
  const t = useT();
  return slotsOf(component).map((slot) => (
    <div key={zoneId(slot)} className="canvas-slot">
      {component.type === 'tabs' ? (
        <p className="canvas-slot-label">
          {component.tabs[slot.tab]?.label || t('views.builder.dnd.untitledTab')}
        </p>
      ) : null}
      <Zone slot={slot} container={component} {...shared} />
    </div>
  ));
}

function Zone({ slot, container, ...shared }: Shared & { slot: Slot; container: ViewComponent }) {
  const t = useT();
  const id = zoneId(slot);
  const children = childrenIn(container, slot.tab) ?? [];
  const columns = container.type === 'grid' ? container.columns : 1;
  const { setNodeRef, isOver } = useDroppable({
    id,
    data: { kind: 'zone', slot } satisfies DragData,
    disabled: shared.moving.has(slot.containerId),
  });
  const label = slotLabel(t, container, slot.tab);
  return (
    <SortableContext
      id={id}
      items={children.map((c) => c.id)}
      strategy={columns > 1 ? rectSortingStrategy : verticalListSortingStrategy}
    >
      <ul
        ref={setNodeRef}
        className={`canvas-zone${isOver ? ' is-over' : ''}`}
        aria-label={label}
        data-zone={id}
        style={{ '--canvas-columns': columns } as CSSProperties}
      >
        {children.map((child) => (
          <CanvasItem key={child.id} component={child} {...shared} />
        ))}
        <EndOfZone slot={slot} disabled={shared.moving.has(slot.containerId)} empty={children.length === 0} />
      </ul>
    </SortableContext>
  );
}

/**
 * The strip after a box's last child: dropping there puts the component at the end. The keyboard
 * reaches the end of a box through it (the box itself starts above its children).
 */
function EndOfZone({ slot, disabled, empty }: { slot: Slot; disabled: boolean; empty: boolean }) {
  const t = useT();
  const { setNodeRef, isOver } = useDroppable({
    id: `end:${slot.containerId}:${slot.tab}`,
    data: { kind: 'zone', slot, end: true } satisfies DragData,
    disabled,
  });
  return (
    <li ref={setNodeRef} className={`canvas-end${empty ? ' muted' : ''}${isOver ? ' is-over' : ''}`}>
      {empty ? t('views.builder.dnd.empty') : null}
    </li>
  );
}

function CanvasItem({ component, ...shared }: Shared & { component: ViewComponent }) {
  const t = useT();
  const sortable = useSortable({
    id: component.id,
    data: { kind: 'component' } satisfies DragData,
    attributes: { roleDescription: t('views.builder.dnd.roleDescription') },
    disabled: {
      draggable: false,
      droppable: shared.moving.has(component.id) && component.id !== shared.activeId,
    },
  });
  const selected = shared.selected === component.id;
  // Dropped here from another box or from the palette: it goes before this component.
  const before = sortable.isOver && sortable.activeIndex < 0 && shared.activeId !== component.id;
  const style: CSSProperties = {
    transform: CSS.Translate.toString(sortable.transform),
    transition: sortable.transition,
  };
  return (
    <li
      ref={sortable.setNodeRef}
      style={style}
      data-component-id={component.id}
      className={[
        'canvas-item',
        sortable.isDragging ? 'is-dragging' : '',
        before ? 'is-drop-before' : '',
        slotsOf(component).length > 0 ? 'is-container' : '',
      ]
        .filter(Boolean)
        .join(' ')}
    >
      <button
        type="button"
        ref={sortable.setActivatorNodeRef}
        {...sortable.attributes}
        {...sortable.listeners}
        className={`canvas-head${selected ? ' is-selected' : ''}`}
        aria-pressed={selected}
        onClick={() => shared.onSelect(component.id)}
      >
        {t(`views.component.${component.type}`)} <span className="mono muted">{component.id}</span>
      </button>
      <Zones component={component} {...shared} />
    </li>
  );
}
