import { type RefObject, useEffect } from 'react';

/**
 * After a refused submit, the first field that says what is wrong gets the focus and is scrolled into
 * view: a reason placed beside its field is no use above the fold while the person looks at the button
 * (a 200,000-character message used to show only the failure toast at the bottom). Runs whenever
 * `errors` is a new value; fields mark themselves with aria-invalid (components/field.tsx).
 */
export function useFocusFirstInvalid(formRef: RefObject<HTMLElement | null>, errors: unknown) {
  useEffect(() => {
    const first = formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]');
    if (!first) return;
    first.focus({ preventScroll: true });
    first.scrollIntoView?.({ block: 'center' });
  }, [errors, formRef]);
}
