/**
 * A screen whose code is fetched when it is first shown: its own chunk of the build (decision 0067),
 * so the first page loads only the shell and the screen it shows. The app shows a placeholder
 * (React Suspense) while it loads. Use: `lazyScreen(() => import('./X.tsx'), 'X')`.
 */
import { type ComponentType, lazy } from 'react';

type ScreenComponent = ComponentType<{ params: Record<string, string> }>;

export function lazyScreen<K extends string>(
  load: () => Promise<Record<K, ScreenComponent>>,
  name: K,
): ScreenComponent {
  return lazy(async (): Promise<{ default: ScreenComponent }> => ({ default: (await load())[name] }));
}
