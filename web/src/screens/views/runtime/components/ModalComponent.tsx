/**
 * A modal or drawer: nothing on the page until an `openModal` event; then the console's dialog
 * (focus moves in and stays in, Escape or Close closes, focus returns to what opened it) holding
 * its children, which see the view's values like any other component (a row clicked to open it).
 */
import { Dialog } from '../../../../components/index.ts';
import type { ViewComponent } from '../../view-api.ts';
import { ComponentView } from '../ComponentView.tsx';
import { templateText, useViewRuntime } from '../runtime.tsx';

type Modal = Extract<ViewComponent, { type: 'modal' }>;

export function ModalComponent({ component }: { component: Modal }) {
  const runtime = useViewRuntime();
  const open = runtime.openModals.includes(component.id);
  if (!open) return null;
  const title = component.title ? templateText(component.title, runtime.context()) : component.id;
  return (
    <Dialog
      open
      title={title}
      className={component.variant === 'drawer' ? 'view-drawer' : 'view-modal'}
      onCancel={() => runtime.closeModal(component.id)}
    >
      <div className="view-modal-body" data-modal={component.id}>
        {component.children.map((child) => (
          <ComponentView key={child.id} component={child} />
        ))}
      </div>
    </Dialog>
  );
}
