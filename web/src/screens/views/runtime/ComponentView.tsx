/**
 * One component of a visual view: its caption, `hidden`, and an error boundary, so a component
 * whose expression throws or whose data is missing shows the error in its own place while the
 * rest of the view keeps working. The renderer per type comes from the
 * renderers ViewRenderer provides (components/registry.ts).
 */
import { Component, type ReactNode } from 'react';
import type { ViewComponent } from '../view-api.ts';
import { useRenderers } from './renderers.ts';
import { templateText, useViewRuntime } from './runtime.tsx';
import { ViewProblem } from './ViewProblem.tsx';

export function ComponentView({ component }: { component: ViewComponent }) {
  const runtime = useViewRuntime();
  return (
    <Boundary
      key={JSON.stringify(component)}
      id={component.id}
      resetKey={[runtime.queries, runtime.values, runtime.state]}
    >
      <ComponentBody component={component} />
    </Boundary>
  );
}

function ComponentBody({ component }: { component: ViewComponent }) {
  const runtime = useViewRuntime();
  const renderers = useRenderers();
  if (component.hidden && isHidden(component.hidden, runtime)) return null;
  const Renderer = renderers[component.type] as (props: { component: ViewComponent }) => ReactNode;
  // A modal draws its own dialog (titled) at the end of the page: no caption, no box where it sits.
  if (component.type === 'modal') return <Renderer component={component} />;
  const title = component.title ? templateText(component.title, runtime.context()) : '';
  return (
    <section
      className={`view-component view-c-${component.type}`}
      data-component={component.id}
      aria-label={title || undefined}
    >
      {title ? <h2 className="view-component-title">{title}</h2> : null}
      <Renderer component={component} />
    </section>
  );
}

/** Clears its error when the view's data changes (the next render may succeed). */
/**
 * `hidden` is true, or it failed while a query is still loading (`queries.order.rows[0].status`
 * before the order arrived): hidden until the data is there; a failure with all data loaded shows.
 */
function isHidden(expression: string, runtime: ReturnType<typeof useViewRuntime>): boolean {
  try {
    return Boolean(runtime.bind(expression));
  } catch (error) {
    const loading = runtime.definition.queries.some((q) => {
      const status = runtime.queries[q.id]?.status;
      return status === 'loading' || (q.runOn === 'load' && status === undefined);
    });
    if (loading) return true;
    throw error;
  }
}

class Boundary extends Component<
  { id: string; resetKey: unknown[]; children: ReactNode },
  { error: unknown }
> {
  override state: { error: unknown } = { error: undefined };
  static getDerivedStateFromError(error: unknown) {
    return { error };
  }
  override componentDidUpdate(previous: { resetKey: unknown[] }) {
    if (
      this.state.error !== undefined &&
      previous.resetKey.some((value, i) => value !== this.props.resetKey[i])
    ) {
      this.setState({ error: undefined });
    }
  }
  override render() {
    if (this.state.error !== undefined) {
      return (
        <section className="view-component view-broken" data-component={this.props.id}>
          <ViewProblem error={this.state.error} where={this.props.id} />
        </section>
      );
    }
    return this.props.children;
  }
}
