/**
 * One place for what every screen needs on a page change (WCAG 2.4.2, 2.4.3): the window title
 * names the screen (its first heading, kept in step while the heading loads), and after the path
 * changes focus moves to that heading once the screen has drawn it, instead of being left on
 * `<body>` or on the link that was clicked. Screens need do nothing but render an `<h1>`.
 */
import { useEffect, useRef } from 'react';
import { useT } from '../i18n/index.tsx';
import { useRoute } from './router.tsx';

/** How long a new screen may take to show its heading before focus is left where it is. */
const focusWaitMs = 15_000;

export function RouteFocus() {
  const t = useT();
  const appName = t('app.name');
  const { path } = useRoute();
  const previousPath = useRef<string | undefined>(undefined);

  useEffect(() => {
    const moved = previousPath.current !== undefined && previousPath.current !== path;
    previousPath.current = path;
    let pending = moved;
    const givenUpAt = Date.now() + focusWaitMs;
    const sync = () => {
      const heading = document.querySelector<HTMLElement>('main h1') ?? document.querySelector('h1');
      const text = heading?.textContent?.replace(/\s+/g, ' ').trim();
      const title = text && text !== appName ? `${text} — ${appName}` : appName;
      if (document.title !== title) document.title = title;
      if (!pending || !heading) return;
      if (Date.now() > givenUpAt) {
        pending = false;
        return;
      }
      // Wait for the screen's data: its heading may still be a placeholder.
      if (document.querySelector('main [aria-busy="true"], .screen-loading')) return;
      pending = false;
      const active = document.activeElement;
      const main = heading.closest('main');
      // Focus the screen itself changed on purpose (an input of the new screen) stays where it is.
      if (active && active !== document.body && main?.contains(active) && active !== main) return;
      if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
      heading.focus({ preventScroll: true });
    };
    sync();
    const observer = new MutationObserver(sync);
    observer.observe(document.body, {
      childList: true,
      subtree: true,
      characterData: true,
      attributes: true,
      attributeFilter: ['aria-busy'],
    });
    return () => observer.disconnect();
  }, [path, appName]);
  return null;
}
