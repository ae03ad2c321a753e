import type { ReactNode } from 'react';
import { usePageTitle } from '../../lib/use-page-title';

export function PageHeader({ title, children }: { title: string; children?: ReactNode }) {
  usePageTitle(title);
  return (
    <div className="page-header">
      <h1>{title}</h1>
      {children ? <div className="page-header__intro">{children}</div> : null}
    </div>
  );
}
