/** Contact and status destinations, kept in one place so the footer and pages agree. */
export const CONTACT_EMAIL = 'hello@afterword.app';
export const CONTACT_MAILTO = `mailto:${CONTACT_EMAIL}`;
export const HEALTH_ENDPOINT = '/api/health';
export const PITCH_DECK_PATH = '/press/afterword-pitch-deck.pdf';
export const EXPLAINER_VIDEO_PATH = '/press/afterword-explainer.webm';
export const EXPLAINER_CAPTIONS_PATH = '/press/afterword-explainer.vtt';
/** The Worker's own pages (full navigations, not app routes). */
export const API_DOCS_PATH = '/api/docs';
export const OPENAPI_PATH = '/api/openapi.json';
