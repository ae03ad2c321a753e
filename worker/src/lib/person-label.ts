/** How a person is named to another: "Ann Lee (ann@example.com)", or the address alone. */
export const personLabel = (p: { email: string; display_name: string | null }) => (p.display_name?.trim() ? `${p.display_name.trim()} (${p.email})` : p.email);
