/**
 * An ordered list that can be rearranged by dragging an item onto another, or with each item's
 * "move up" / "move down" buttons (the keyboard way). Every move is announced politely.
 */
import { type DragEvent, useState } from 'react';
import { Button } from '../../components/index.ts';
import { useT } from '../../i18n/index.tsx';

export interface ReorderItem {
  id: string;
  label: string;
}

export function moveItem<T>(list: T[], from: number, to: number): T[] {
  if (from === to || from < 0 || to < 0 || from >= list.length || to >= list.length) return list;
  const next = [...list];
  const [moved] = next.splice(from, 1);
  next.splice(to, 0, moved as T);
  return next;
}

export function ReorderList({
  items,
  onChange,
  label,
}: {
  items: ReorderItem[];
  onChange(ids: string[]): void;
  label: string;
}) {
  const t = useT();
  const [dragging, setDragging] = useState<number>();
  const [over, setOver] = useState<number>();
  const [announcement, setAnnouncement] = useState('');

  const move = (from: number, to: number) => {
    const next = moveItem(items, from, to);
    if (next === items) return;
    onChange(next.map((item) => item.id));
    setAnnouncement(
      t('governance.groups.moved', { name: items[from]!.label, position: to + 1, count: items.length }),
    );
  };

  const onDrop = (event: DragEvent, index: number) => {
    event.preventDefault();
    const from = dragging ?? Number(event.dataTransfer.getData('text/plain'));
    setDragging(undefined);
    setOver(undefined);
    if (Number.isInteger(from)) move(from, index);
  };

  return (
    <>
      <ol className="reorder-list" aria-label={label}>
        {items.map((item, index) => (
          <li
            key={item.id}
            className={[
              'reorder-item',
              dragging === index ? 'is-dragging' : '',
              over === index ? 'is-over' : '',
            ]
              .filter(Boolean)
              .join(' ')}
            draggable
            data-id={item.id}
            onDragStart={(event) => {
              setDragging(index);
              event.dataTransfer.effectAllowed = 'move';
              event.dataTransfer.setData('text/plain', String(index));
            }}
            onDragOver={(event) => {
              event.preventDefault();
              setOver(index);
            }}
            onDragLeave={() => setOver((current) => (current === index ? undefined : current))}
            onDragEnd={() => {
              setDragging(undefined);
              setOver(undefined);
            }}
            onDrop={(event) => onDrop(event, index)}
          >
            <span className="reorder-handle" aria-hidden="true">
              ⠿
            </span>
            <span className="reorder-position muted">{index + 1}.</span>
            <span className="reorder-name">{item.label}</span>
            <Button
              className="btn-small"
              variant="quiet"
              disabled={index === 0}
              onClick={() => move(index, index - 1)}
              aria-label={t('governance.groups.moveUp', { name: item.label })}
            >
              ↑
            </Button>
            <Button
              className="btn-small"
              variant="quiet"
              disabled={index === items.length - 1}
              onClick={() => move(index, index + 1)}
              aria-label={t('governance.groups.moveDown', { name: item.label })}
            >
              ↓
            </Button>
          </li>
        ))}
      </ol>
      <div className="visually-hidden" role="status" aria-live="polite">
        {announcement}
      </div>
    </>
  );
}
