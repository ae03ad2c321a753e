/**
 * A link opened while signed out (a guardian invitation, a vault claim): its token waits in
 * sessionStorage (this tab only) so that, once signed in, the app brings the person back to it
 * (routes/app.tsx). Taken once, then forgotten; blocked storage only means the link must be opened again.
 */
export function pendingLink(key: string) {
  return {
    remember(token: string): void {
      try {
        sessionStorage.setItem(key, token);
      } catch {
        // storage blocked: the link still works after signing in
      }
    },
    take(): string | null {
      try {
        const token = sessionStorage.getItem(key);
        sessionStorage.removeItem(key);
        return token || null;
      } catch {
        return null;
      }
    },
  };
}
