/*
 * The API's validation sentences name its fields ("recipient_user_id must be a user id (a UUID)"), which
 * is right for API clients. People read the forms' labels instead: this turns the one into the other.
 * Only whole snake_case words are replaced, so ordinary words and values are left alone.
 */
const LABELS: Record<string, string> = {
  recipient_user_id: 'Recipient User ID',
  user_id: 'User ID',
  deliver_at: 'Deliver at',
  delivery_method: 'Delivery method',
  use_e2ee: 'End-to-end encryption',
  content_encrypted: 'The encrypted message',
  trigger_type: 'Rule type',
  trigger_value: 'Rule value',
  expire_window: 'Cancel window',
  interval_seconds: 'Check-in interval',
  canary_id: 'Canary',
  message_id: 'Message',
  asset_id: 'Vault file',
  condition_type: 'Release condition',
  condition_value: 'Date',
  every_year: 'Every year',
  legal_note: 'Legal note',
  display_name: 'Display name',
  time_zone: 'Time zone',
  current_password: 'Current password',
  new_password: 'New password',
  hmac_secret: 'Signing secret',
  ask_after_misses: 'Ask guardians after',
  veto_window_hours: 'Waiting period',
  death_flag: 'after my death',
  recipient_birthday: "the recipient's birthday",
  password_wrap: 'The password-protected key',
  recovery_wrap: 'The recovery-key-protected key',
};

/** A server sentence with its field names read as the form's labels, and no "(a UUID)" jargon. */
export function forPeople(text: string): string {
  return text
    .replace(/\b[a-z]+(?:_[a-z0-9]+)+\b/g, (word) => LABELS[word] ?? word)
    .replace(/ must be an? (?:[\w-]+ )?id \(a UUID\)/g, ' must be a whole ID (36 letters, digits and dashes)')
    .replace(/ is not a UUID\b/g, ' is not a valid ID')
    .replace(/ must be an ISO date or date-time\b/g, ' must be a date and time');
}
