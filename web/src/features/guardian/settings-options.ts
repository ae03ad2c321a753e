import { MAX_GUARDIANS, VETO_WINDOW_MAX_HOURS, VETO_WINDOW_MIN_HOURS } from '@afterword/worker/contracts/guardian';
import type { SelectOption } from '../../components/select';

/**
 * Quorum choices: 1 up to the owner's invited-or-active guardians (the server refuses more, 422), never
 * above the contract's MAX_GUARDIANS; the saved value stays choosable even after guardians left, since
 * the server never lowers it behind the owner's back.
 */
export function quorumOptions(liveGuardians: number, current: number): SelectOption[] {
  const top = Math.min(MAX_GUARDIANS, Math.max(1, liveGuardians, current));
  // 'M of N' while N covers it; a saved quorum above the guardians left is shown as it is.
  return Array.from({ length: top }, (_, i) => ({ value: String(i + 1), label: i + 1 <= liveGuardians ? `${i + 1} of ${liveGuardians}` : String(i + 1) }));
}

// A few sensible lengths rather than a free number of hours; the saved value is added if it is none of them.
const VETO_PRESETS = [24, 48, 72, 120, 168, 336, 504, 720];

const vetoLabel = (hours: number) => {
  if (hours % 24) return `${hours} hours`;
  const days = hours / 24;
  return days === 1 ? '1 day (24 hours)' : `${days} days`;
};

/** Veto window choices within the contract's limits (24 hours to 30 days). */
export function vetoWindowOptions(current: number): SelectOption[] {
  const hours = new Set(VETO_PRESETS.filter((h) => h >= VETO_WINDOW_MIN_HOURS && h <= VETO_WINDOW_MAX_HOURS));
  hours.add(current);
  return [...hours].sort((a, b) => a - b).map((h) => ({ value: String(h), label: vetoLabel(h) }));
}
