import type { HTMLAttributes, ReactNode } from 'react';

interface CardProps extends Omit<HTMLAttributes<HTMLElement>, 'title'> {
  title?: ReactNode;
  /** Heading level for the title, so each page keeps a correct outline. */
  headingLevel?: 2 | 3;
  actions?: ReactNode;
}

export function Card({ title, headingLevel = 2, actions, className, children, ...rest }: CardProps) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <section className={['card', className].filter(Boolean).join(' ')} {...rest}>
      {title || actions ? (
        <header className="card__header">
          {title ? <Heading className="card__title">{title}</Heading> : null}
          {actions}
        </header>
      ) : null}
      {children}
    </section>
  );
}
