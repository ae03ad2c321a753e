import { useId, useLayoutEffect, useRef, type ReactNode } from 'react';
import { Button } from '../../components/button';
import { copyText } from '../../lib/clipboard';
import { T } from './texts';

interface ShownOncePanelProps {
  title: string;
  /** What the value is, for screen readers (e.g. 'API key for Zapier'). */
  valueLabel: string;
  value: string;
  warning: string;
  copyLabel: string;
  copiedMessage: string;
  /** Forgets the value: it is gone from the page and cannot be shown again. */
  onDone: () => void;
  children?: ReactNode;
}

/**
 * A secret the server returns exactly once (a new API key, a webhook signing secret): shown with a copy
 * button and a plain warning, kept only in memory, and forgotten when the person says it is saved.
 * Focus moves here when it appears, so keyboard and screen-reader users meet it first.
 */
export function ShownOncePanel({ title, valueLabel, value, warning, copyLabel, copiedMessage, onDone, children }: ShownOncePanelProps) {
  const titleId = useId();
  const ref = useRef<HTMLElement>(null);
  // In the same commit as the panel itself (a layout effect), so nothing — a screen reader, a test — sees
  // the panel before it has the focus.
  useLayoutEffect(() => ref.current?.focus(), []);
  return (
    <section ref={ref} className="once-panel" aria-labelledby={titleId} tabIndex={-1}>
      <h3 id={titleId} className="once-panel__title">
        {title}
      </h3>
      <p className="warning once-panel__warning" role="note">
        {warning}
      </p>
      {children}
      <figure className="code-figure" aria-label={valueLabel}>
        <pre className="code-block once-panel__value">
          <code>{value}</code>
        </pre>
      </figure>
      <div className="button-row">
        <Button onClick={() => void copyText(value, copiedMessage)}>{copyLabel}</Button>
        <Button variant="secondary" onClick={onDone}>
          {T.onceDone}
        </Button>
      </div>
    </section>
  );
}
