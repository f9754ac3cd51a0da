/**
 * What a view may reach outside the console (docs/views.md "Allowed hosts", decision 0155): media
 * only from the project's allowed hosts (or the console's own origin), and navigation to any other
 * host only after the viewer saw the full address and agreed. A view author can put the viewer's
 * data into a URL; the browser must not send it anywhere the project did not name, and a click
 * must not send it without the viewer reading where it goes.
 */
import { createContext, type ReactNode, useCallback, useContext, useMemo, useState } from 'react';
import { hostOf, isAllowedUrl } from '../../../../../shared/domain/allowed-hosts.ts';
import { Dialog } from '../../../components/index.ts';
import { useT } from '../../../i18n/index.tsx';

export interface OutsideHosts {
  /** Whether the view may load from (or go to without asking) this absolute URL. */
  allows(url: string): boolean;
  /** Opens `url` in a new tab: at once when allowed, else after the viewer agreed in a dialog. */
  open(url: string): void;
}

const ownOrigin = () => (typeof window === 'undefined' ? undefined : window.location.origin);

const openTab = (url: string) => window.open(url, '_blank', 'noopener,noreferrer');

// Without a provider nothing outside is allowed and nothing outside opens: the safe reading.
const OutsideHostsContext = createContext<OutsideHosts>({
  allows: (url) => isAllowedUrl(url, [], ownOrigin()),
  open: (url) => {
    if (isAllowedUrl(url, [], ownOrigin())) openTab(url);
  },
});

export function useOutsideHosts(): OutsideHosts {
  return useContext(OutsideHostsContext);
}

/** `hosts`: the project's allow-list, as the resolved view (or the project) carries it. */
export function OutsideHostsProvider({ hosts, children }: { hosts: readonly string[]; children: ReactNode }) {
  const t = useT();
  const [pending, setPending] = useState<string>();
  const allows = useCallback((url: string) => isAllowedUrl(url, hosts, ownOrigin()), [hosts]);
  const value = useMemo<OutsideHosts>(
    () => ({
      allows,
      open: (url) => {
        if (allows(url)) openTab(url);
        else setPending(url);
      },
    }),
    [allows],
  );
  return (
    <OutsideHostsContext.Provider value={value}>
      {children}
      <Dialog
        open={pending !== undefined}
        title={t('views.leave.title', { host: pending ? hostOf(pending) : '' })}
        // `danger`: Cancel has the focus, so Enter or Space at once keeps the viewer here.
        danger
        confirmLabel={t('views.leave.open')}
        onConfirm={() => {
          if (pending) openTab(pending);
          setPending(undefined);
        }}
        onCancel={() => setPending(undefined)}
      >
        <p>{t('views.leave.detail')}</p>
        <p className="mono view-leave-url" data-testid="leave-url">
          {pending}
        </p>
      </Dialog>
    </OutsideHostsContext.Provider>
  );
}

/** In place of media from a host outside the allow-list: what was not loaded, and from where. */
export function BlockedMedia({ url }: { url: string }) {
  const t = useT();
  return (
    <div className="view-blocked-media" role="note" title={url}>
      {t('views.blocked.media', { host: hostOf(url) })}
    </div>
  );
}
