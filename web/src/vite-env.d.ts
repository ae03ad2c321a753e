/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** 'true' shows the 'Login with Google' button (docs/product.md "Accounts and sign-in"). */
  readonly VITE_GOOGLE_SIGNIN?: string;
  /** Optional JSON that overrides tier prices at build time (docs/product.md "Plans and billing"). */
  readonly VITE_PRICING_OVERRIDES?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
