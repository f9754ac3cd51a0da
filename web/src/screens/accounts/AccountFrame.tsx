/** The frame of the pages outside a project (your account, users): a way back, the language switch. */
import type { ReactNode } from 'react';
import { LanguageSwitch } from '../../app/LanguageSwitch.tsx';
import { Link } from '../../app/router.tsx';
import { useT } from '../../i18n/index.tsx';

export function AccountFrame({ title, children }: { title: string; children: ReactNode }) {
  const t = useT();
  return (
    <main id="main" className="account-page">
      <div className="account-page-bar">
        <Link href="/" className="back-link">
          ← {t('accounts.back')}
        </Link>
        <div className="header-spacer" />
        <LanguageSwitch />
      </div>
      <section className="screen" aria-labelledby="account-page-title">
        <h1 id="account-page-title">{title}</h1>
        {children}
      </section>
    </main>
  );
}
