/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** 'true' shows the 'Login with Google' button (SPEC section 2). */
  readonly VITE_GOOGLE_SIGNIN?: string;
  /** Optional JSON that overrides tier prices at build time (SPEC section 9). */
  readonly VITE_PRICING_OVERRIDES?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
