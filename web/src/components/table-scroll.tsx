import { useEffect, useRef, useState, type ReactNode } from 'react';

type Props = { children: ReactNode } & ({ label: string; labelledBy?: never } | { labelledBy: string; label?: never });

/**
 * A wide table that scrolls sideways on a narrow screen instead of cutting columns, and shows that it
 * does: a shadow on the side with more to see, and a line saying so while anything is out of view.
 * The region is focusable so a keyboard can scroll it (axe scrollable-region-focusable, WCAG 2.1.1).
 */
export function TableScroll({ children, label, labelledBy }: Props) {
  const ref = useRef<HTMLElement>(null);
  const [more, setMore] = useState({ start: false, end: false });

  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () => {
      const start = el.scrollLeft > 1;
      const end = el.scrollLeft + el.clientWidth < el.scrollWidth - 1;
      setMore((m) => (m.start === start && m.end === end ? m : { start, end }));
    };
    measure();
    el.addEventListener('scroll', measure, { passive: true });
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(measure);
    observer?.observe(el);
    return () => {
      el.removeEventListener('scroll', measure);
      observer?.disconnect();
    };
  }, []);

  return (
    <div className="table-scroll-frame" data-more-start={more.start || undefined} data-more-end={more.end || undefined}>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard to scroll it (axe scrollable-region-focusable, WCAG 2.1.1) */}
      <section ref={ref} className="table-scroll" tabIndex={0} aria-label={label} aria-labelledby={labelledBy}>
        {children}
      </section>
      {more.start || more.end ? <p className="table-scroll__hint">Scroll sideways to see every column.</p> : null}
    </div>
  );
}
