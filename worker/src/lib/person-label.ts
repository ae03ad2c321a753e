/** How a person is named to another: "Ann Lee (ann@example.com)", or the address alone. */
export const personLabel = (p: { email: string; display_name: string | null }) => (p.display_name?.trim() ? `${p.display_name.trim()} (${p.email})` : p.email);

/** "Ada (ada@example.com)", or the email alone when the name is the email (no display name): never "ada@… (ada@…)". */
export const nameWithEmail = (name: string, email: string) => (name.trim() && name.trim() !== email ? `${name.trim()} (${email})` : email);
