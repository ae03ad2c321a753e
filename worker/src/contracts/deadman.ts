import { z } from 'zod';

/**
 * The dead-man's switch (docs/server-rules.md "Canaries and check-ins"): hours without a check-in before the
 * account is scheduled for deletion.
 */
export const DEADMAN_MAX_HOURS = 8760;

/** POST /api/deadman/setup. */
export const ZDeadmanSetupInput = z.object({
  hours: z
    .number({ message: 'hours must be a number' })
    .positive({ message: 'hours must be greater than 0' })
    .max(DEADMAN_MAX_HOURS, { message: `hours must be at most ${DEADMAN_MAX_HOURS} (one year)` }),
});
export type TDeadmanSetupInput = z.input<typeof ZDeadmanSetupInput>;

export const ZDeadman = z.object({
  active: z.boolean(),
  hours: z.number().nullable(),
  deadline: z.string().nullable(),
});
export type TDeadman = z.infer<typeof ZDeadman>;
