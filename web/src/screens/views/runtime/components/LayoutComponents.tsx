/** Tabs and grids: containers whose children are components (each with its own error boundary). */
import { type CSSProperties, useState } from 'react';
import { Tabs } from '../../../../components/index.ts';
import type { ViewComponent } from '../../view-api.ts';
import { ComponentView } from '../ComponentView.tsx';

type Of<T extends ViewComponent['type']> = Extract<ViewComponent, { type: T }>;

export function GridComponent({ component }: { component: Of<'grid'> }) {
  return (
    <div
      className="view-grid"
      // The count goes in as a variable, not as grid-template-columns, so views.css can stack the
      // columns on a narrow screen (an inline grid-template-columns would win over the media query).
      style={{ '--view-columns': component.columns } as CSSProperties}
      data-columns={component.columns}
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
