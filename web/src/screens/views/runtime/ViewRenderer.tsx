/** A visual view on screen: the runtime (queries, values, events) around its root component. */
import type { VisualViewDefinition } from '../view-api.ts';
import { ComponentView } from './ComponentView.tsx';
import { componentRenderers } from './components/registry.ts';
import { RenderersContext } from './renderers.ts';
import { type ViewRuntimeProps, ViewRuntimeProvider } from './runtime.tsx';

export function ViewRenderer(
  props: Omit<ViewRuntimeProps, 'children'> & { definition: VisualViewDefinition },
) {
  return (
    <ViewRuntimeProvider {...props}>
      <RenderersContext.Provider value={componentRenderers}>
        <div className="view-root">
          <ComponentView component={props.definition.layout} />
        </div>
      </RenderersContext.Provider>
    </ViewRuntimeProvider>
  );
}
