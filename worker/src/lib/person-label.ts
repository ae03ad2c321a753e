import type { User } from '@afterword/db/schema';

/** How a person is named to another: "Ann Lee (ann@example.com)", or the address alone. */
export const personLabel = (p: { email: string; display_name: string | null }) => (p.display_name?.trim() ? `${p.display_name.trim()} (${p.email})` : p.email);

/** "Ada (ada@example.com)", or the email alone when the name is the email (no display name): never "ada@… (ada@…)". */
export const nameWithEmail = (name: string, email: string) => (name.trim() && name.trim() !== email ? `${name.trim()} (${email})` : email);

/** What people call the owner in what we send: their display name, else their email. */
export const personName = (u: Pick<User, 'display_name' | 'email'>) => u.display_name.trim() || u.email;
/** The SQL twin of personName for a `users` row aliased `u`. */
export const PERSON_NAME_SQL = "coalesce(nullif(trim(u.display_name), ''), u.email)";
