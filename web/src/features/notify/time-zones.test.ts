import { describe, expect, it } from 'vitest';
import { suggestedTimeZone, timeZoneOptions } from './time-zones';

describe('time zones', () => {
  it("prefills the browser's zone over the server default UTC, and keeps any other saved zone", () => {
    expect(suggestedTimeZone('UTC', 'Europe/Berlin')).toEqual({ zone: 'Europe/Berlin', suggested: true });
    expect(suggestedTimeZone('UTC', 'UTC')).toEqual({ zone: 'UTC', suggested: false });
    expect(suggestedTimeZone('America/Chicago', 'Europe/Berlin')).toEqual({ zone: 'America/Chicago', suggested: false });
  });

  it('offers UTC and the saved zone even when the browser does not list them', () => {
    const zones = timeZoneOptions('Etc/GMT+5');
    expect(zones).toContain('UTC');
    expect(zones).toContain('Etc/GMT+5');
    expect(zones).toEqual([...zones].sort((a, b) => a.localeCompare(b)));
  });
});
