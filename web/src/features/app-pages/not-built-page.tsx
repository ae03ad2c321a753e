import type { ReactNode } from 'react';
import { EmptyState } from '../../components/empty-state';
import { PageHeader } from './page-header';

interface NotBuiltPageProps {
  title: string;
  /** What this screen will do, in one or two plain sentences. */
  intro: ReactNode;
  /** E.g. 'Messages are not available yet.' */
  notice: string;
}

/** A screen whose capability is not built yet says so plainly: no sample data, no buttons that pretend. */
export function NotBuiltPage({ title, intro, notice }: NotBuiltPageProps) {
  return (
    <>
      <PageHeader title={title}>{intro}</PageHeader>
      <EmptyState title={notice}>
        <p>This part of Afterword is being built. Nothing here sends, stores or deletes anything yet.</p>
      </EmptyState>
    </>
  );
}
