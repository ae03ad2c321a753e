import { afterEach, describe, expect, it } from 'vitest';
import { isReturnPath, rememberReturnTo, takeReturnTo } from './return-to';

describe('the page a signed-out visitor opened, taken back to after sign-in', () => {
  afterEach(() => sessionStorage.clear());

  it('keeps an app page, with its query, and gives it back once', () => {
    rememberReturnTo('/app/messages/view/abc?x=1');
    expect(takeReturnTo()).toBe('/app/messages/view/abc?x=1');
    expect(takeReturnTo()).toBeNull();
  });

  it('keeps nothing outside the app: the dashboard itself, public pages, other origins', () => {
    for (const href of ['/app', '/app/', '/login', '//evil.example/app/x', 'https://evil.example/app/x', '/app\\evil']) {
      expect(isReturnPath(href), href).toBe(false);
      rememberReturnTo(href);
      expect(takeReturnTo(), href).toBeNull();
    }
  });
});
