import { defineConfig } from 'drizzle-kit';

// Generates SQL only; wrangler applies it (`wrangler d1 migrations apply`), never `drizzle-kit push`.
export default defineConfig({
  dialect: 'sqlite',
  schema: './schema/index.ts',
  out: './migrations',
});
