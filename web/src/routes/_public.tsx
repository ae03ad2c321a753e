import { createFileRoute, Outlet } from '@tanstack/react-router';
import { PublicLayout } from '../features/site/public-layout';

/** Pathless layout: the public pages share one header and footer. */
export const Route = createFileRoute('/_public')({
  component: () => (
    <PublicLayout>
      <Outlet />
    </PublicLayout>
  ),
});
