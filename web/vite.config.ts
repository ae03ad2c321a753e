import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const fromHere = (p: string) => fileURLToPath(new URL(p, import.meta.url));

/**
 * The API reference page (/api/docs, served by the Worker: worker/src/openapi/rest.ts) loads Scalar
 * from this origin, never a CDN, so it works offline: its standalone bundle becomes the static asset
 * /vendor/scalar/standalone.js of the build (and is served at that path by `vite dev` too).
 */
function scalarStandalone(): Plugin {
  const urlPath = '/vendor/scalar/standalone.js';
  const file = fromHere('./node_modules/@scalar/api-reference/dist/browser/standalone.js');
  // The source map is not shipped: drop the comment that points at it.
  const read = () => readFileSync(file, 'utf8').replace(/\n\/\/# sourceMappingURL=\S+\s*$/, '\n');
  return {
    name: 'afterword:scalar-standalone',
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: urlPath.slice(1), source: read() });
    },
    configureServer(server) {
      server.middlewares.use(urlPath, (_req, res) => {
        res.setHeader('Content-Type', 'text/javascript; charset=utf-8');
        res.end(read());
      });
    },
  };
}

export default defineConfig({
  plugins: [
    // The router plugin must run before the React plugin so split route chunks get Fast Refresh.
    tanstackRouter({
      target: 'react',
      autoCodeSplitting: true,
      routesDirectory: fromHere('./src/routes'),
      generatedRouteTree: fromHere('./src/routeTree.gen.ts'),
    }),
    react(),
    scalarStandalone(),
  ],
  build: { outDir: fromHere('./dist'), emptyOutDir: true },
  server: {
    proxy: { '/api': { target: 'http://127.0.0.1:8787', changeOrigin: false } },
  },
});
