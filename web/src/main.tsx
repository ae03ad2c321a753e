import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { createAppRouter } from './router';
import './styles/tokens.css';
import './styles/base.css';
import './styles/components.css';
import './styles/layout.css';

const router = createAppRouter();
const container = document.getElementById('root')!;
const app = (
  <StrictMode>
    <RouterProvider router={router} />
  </StrictMode>
);

// A public page prerendered at build time (src/prerender.tsx) is hydrated once its route's code is in,
// so the first render matches the markup; every other address starts from the empty shell.
if (container.dataset.prerendered === window.location.pathname) {
  // What @tanstack/react-router/ssr/client's hydrate() sets (it also reads state that a server writes
  // as an inline script, which the CSP refuses and a static page has none of): the router then renders
  // its matches without the outer Suspense boundary that the server's render did not have either.
  router.ssr = { manifest: undefined };
  void router.load().then(() => hydrateRoot(container, app));
} else {
  container.replaceChildren();
  createRoot(container).render(app);
}
