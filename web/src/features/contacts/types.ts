import type { TContactInvitationAnswer, TContactView, TReachability } from '@afterword/worker/contracts/contacts';

export type Contact = TContactView;
export type ContactInvitationAnswer = TContactInvitationAnswer;
export type Reachability = TReachability;

/** An accepted contact as the pickers offer it. */
export interface ContactOption {
  user_id: string;
  name: string;
  email: string;
}

/** The accepted contacts of a list, as picker options, by name. */
export function contactOptions(contacts: readonly Contact[]): ContactOption[] {
  return contacts
    .filter((c): c is Contact & { user_id: string; name: string } => c.status === 'accepted' && !!c.user_id && !!c.name)
    .map((c) => ({ user_id: c.user_id, name: c.name, email: c.email }))
    .sort((a, b) => a.name.localeCompare(b.name));
}
