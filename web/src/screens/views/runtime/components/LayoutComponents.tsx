/** Tabs and grids: containers whose children are components (each with its own error boundary). */
import { useState } from 'react';
import { Tabs } from '../../../../components/index.ts';
import type { ViewComponent } from '../../view-api.ts';
import { ComponentView } from '../ComponentView.tsx';

type Of<T extends ViewComponent['type']> = Extract<ViewComponent, { type: T }>;

export function GridComponent({ component }: { component: Of<'grid'> }) {
  return (
    <div
      className="view-grid"
      style={{ gridTemplateColumns: `repeat(${component.columns}, minmax(0, 1fr))` }}
    >
      {component.children.map((child) => (
        <ComponentView key={child.id} component={child} />
      ))}
    </div>
  );
}

export function TabsComponent({ component }: { component: Of<'tabs'> }) {
  const [active, setActive] = useState('0');
  return (
    <Tabs
      label={component.title ?? component.id}
      active={active}
      onChange={setActive}
      tabs={component.tabs.map((tab, i) => ({
        id: String(i),
        label: tab.label,
        content: () => (
          <div className="view-tab">
            {tab.children.map((child) => (
              <ComponentView key={child.id} component={child} />
            ))}
          </div>
        ),
      }))}
    />
  );
}
