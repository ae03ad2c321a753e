/** SPEC section 9: plan limits enforced on the server (prices live in the web app's pricing module). */
export const PLAN_LIMITS = {
  free: { name: 'Free', canaries: 1, storageBytes: 1e9, voiceMinutes: 0, apiCallsPerMonth: 100 },
  plus: { name: 'Plus', canaries: 3, storageBytes: 10e9, voiceMinutes: 5, apiCallsPerMonth: 1000 },
  pro: { name: 'Pro', canaries: Infinity, storageBytes: 100e9, voiceMinutes: 20, apiCallsPerMonth: 10000 },
  immortality: { name: 'Immortality', canaries: Infinity, storageBytes: 1000e9, voiceMinutes: 60, apiCallsPerMonth: 100000 },
} as const;

export type PlanId = keyof typeof PLAN_LIMITS;
