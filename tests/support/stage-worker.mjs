// The one Worker of the API and browser stage. tests/run-e2e.mjs starts it (a fresh local D1, the cron
// handler open to requests with `--test-scheduled`, one moderator in MODERATOR_EMAILS) and hands its
// origin, its local state directory and the moderator's address to every test file through the
// environment. Test files keep apart by making their own accounts, never by owning a Worker.

/** @returns {{ origin: string, persistDir: string, moderatorEmail: string }} */
export function stageWorker() {
  const origin = process.env.AFTERWORD_ORIGIN;
  const persistDir = process.env.AFTERWORD_PERSIST_DIR;
  const moderatorEmail = process.env.AFTERWORD_MODERATOR_EMAIL;
  if (!origin || !persistDir || !moderatorEmail)
    throw new Error(
      'the stage Worker is not set (AFTERWORD_ORIGIN, AFTERWORD_PERSIST_DIR, AFTERWORD_MODERATOR_EMAIL): run these tests through tests/run-e2e.mjs',
    );
  return { origin, persistDir, moderatorEmail };
}
