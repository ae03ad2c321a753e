/**
 * Value lists shared by the tables and the API contracts. No imports: the web app's forms read them
 * through the contracts, and importing the table definitions would pull drizzle into the browser bundle.
 */
export const MESSAGE_STATUSES = ['scheduled', 'armed', 'releasing', 'delivered', 'failed', 'cancelled'] as const;
export const DELIVERY_METHODS = ['email', 'sms', 'call', 'push'] as const;
/** What a message's create accepts (docs/product.md "Messages and release rules"). */
export const MESSAGE_RULE_TYPES = ['missed_checkins', 'fixed_date', 'delay_after_death'] as const;
/** Every rule the release engine runs: a vault birthday item's rule is made by the vault, never typed. */
export const TRIGGER_TYPES = [...MESSAGE_RULE_TYPES, 'recipient_birthday'] as const;
/** A vault item's condition (docs/product.md "Vault"). */
export const VAULT_CONDITION_TYPES = ['recipient_birthday', 'exact_date', 'death_flag'] as const;
export const DELIVERY_STATUSES = ['pending', 'sending', 'retrying', 'delivered', 'failed'] as const;
export const NOTIFY_METHODS = ['email', 'sms', 'push'] as const;
/** Kinds of processing a user consents to (docs/product.md "Data rights and consents"). */
export const CONSENT_KINDS = ['messages', 'confessions', 'voice', 'video', 'guardian'] as const;

/** The parts of an account an owner may leave to an heir before a dead-man deletion (worker/src/domains/legacy/). */
export const LEGACY_PARTS = ['account', 'messages', 'vault', 'history'] as const;

/**
 * A voice profile's training (docs/product.md "Voice, persona and chat import": not_started is the absence of a
 * profile).
 */
export const VOICE_PROFILE_STATUSES = ['processing', 'complete', 'failed'] as const;
/**
 * The voice engines (docs/server-rules.md "Voice, persona and chat import"); the one in use is configuration
 * (VOICE_ENGINE).
 */
export const VOICE_ENGINES = ['local', 'workers-ai', 'elevenlabs'] as const;
/** The persona's tone (docs/product.md "Voice, persona and chat import"). */
export const PERSONA_BEHAVIORS = ['playful', 'wise', 'comforting', 'neutral'] as const;
/** Confession capsule themes (docs/product.md "Community: capsules and memorials"). */
export const CAPSULE_THEMES = ['Hope', 'Love', 'Pranks', 'Advice'] as const;
/** What a capsule's content item holds (docs/product.md "Community: capsules and memorials"). */
export const CAPSULE_ITEM_TYPES = ['text', 'audio', 'video'] as const;
/**
 * Memorial tags offered as filters (docs/product.md "Community: capsules and memorials"); a memorial may carry
 * others too.
 */
export const MEMORIAL_TAGS = ['veterans', 'artists', 'teachers'] as const;
/** Chat-history import: the export formats read, and an import's states (docs/decisions/chat-import.md). */
export const CHAT_IMPORT_FORMATS = ['telegram', 'facebook', 'discord', 'plain'] as const;
export const CHAT_IMPORT_STATUSES = ['queued', 'processing', 'needs_sender', 'complete', 'failed'] as const;

/** A canary's timer events (canary_transitions), who recorded one, and how a reminder reached its owner. */
export const CANARY_TRANSITION_KINDS = ['grace_reminder', 'missed', 'late_rewarn', 'pause_ending'] as const;
export const TRANSITION_RECORDERS = ['alarm', 'reconciler'] as const;
export const REMINDER_DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
/**
 * What a canary tells its owner: its warnings (the grace reminder, the re-warning), the miss itself, and
 * that a vacation pause ends soon.
 */
export const CANARY_NOTICE_KINDS = ['grace_reminder', 'late_rewarn', 'missed', 'pause_ending'] as const;
/** Where an owner notice was tried (owner_notice_deliveries): a notification method, or the activity feed. */
export const NOTICE_CHANNELS = [...NOTIFY_METHODS, 'in_app'] as const;
