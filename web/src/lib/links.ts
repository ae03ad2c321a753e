/** Contact and status destinations, kept in one place so the footer and pages agree. */
export const CONTACT_EMAIL = 'hello@afterword.app';
export const CONTACT_MAILTO = `mailto:${CONTACT_EMAIL}`;
export const HEALTH_ENDPOINT = '/api/health';
export const PITCH_DECK_PATH = '/press/afterword-pitch-deck.pdf';
