import { Fragment } from 'react';

/**
 * An email address that breaks at sensible points when it must wrap: after '@' and before each dot
 * ('ann.long-name@' / 'example' / '.org'), never in the middle of the layout.
 */
export function Email({ value }: { value: string }) {
  const parts = value.split(/(?<=@)|(?=\.)/);
  return (
    <span className="break">
      {parts.map((part, i) => (
        <Fragment key={i}>
          {i > 0 ? <wbr /> : null}
          {part}
        </Fragment>
      ))}
    </span>
  );
}
