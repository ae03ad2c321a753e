import { Link } from '@tanstack/react-router';
import { SelectField } from '../../components/select';
import type { ContactOption } from './types';

interface ContactPickerProps {
  /** Accepted contacts; undefined while they load. */
  contacts: readonly ContactOption[] | undefined;
  /** Which contact the field beside it currently names (by user id or email), if any. */
  selected: ContactOption | undefined;
  onPick: (contact: ContactOption) => void;
  label?: string;
  name?: string;
}

/**
 * Pick a person by name instead of typing their id or email: choosing one fills the field beside it
 * (the field stays, and stays editable). With no contacts yet, it says where to add them.
 */
export function ContactPicker({ contacts, selected, onPick, label = 'Pick from your contacts', name = 'contact' }: ContactPickerProps) {
  if (contacts && !contacts.length) {
    return (
      <p className="muted contact-picker__empty">
        No contacts yet. <Link to="/app/contacts">Add a contact</Link> by email to pick them here by name.
      </p>
    );
  }
  return (
    <SelectField
      label={label}
      name={name}
      placeholder={contacts ? 'Choose a contact' : 'Loading contacts…'}
      disabled={!contacts}
      options={(contacts ?? []).map((c) => ({ value: c.user_id, label: c.name === c.email ? c.name : `${c.name} (${c.email})` }))}
      value={selected?.user_id ?? ''}
      onChange={(e) => {
        const picked = contacts?.find((c) => c.user_id === e.target.value);
        if (picked) onPick(picked);
      }}
      hint={<Link to="/app/contacts">Manage contacts</Link>}
    />
  );
}
