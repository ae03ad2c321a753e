import { createMemoryHistory, createRootRoute, createRouter, RouterProvider } from '@tanstack/react-router';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';

/** Components with router Links need a router; this mounts `ui` as the root route at `path`. */
export function renderWithRouter(ui: () => ReactNode, path = '/') {
  const rootRoute = createRootRoute({ component: () => <>{ui()}</> });
  const router = createRouter({ routeTree: rootRoute, history: createMemoryHistory({ initialEntries: [path] }) });
  return { router, ...render(<RouterProvider router={router as never} />) };
}
