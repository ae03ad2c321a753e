/**
 * Whether a failed write broke a constraint: a unique index (`on`: the text of its columns, e.g.
 * "messages.sender_id, messages.create_key", when it matters which) or a foreign key. D1 says so in its error's
 * message; drizzle wraps that error in its own ("Failed query: insert into …", the D1 error as its `cause`), so
 * the whole chain of causes is read — reading only the outer message, two contact invitations of one address at
 * once answered the second with a 500 instead of 409.
 */
export const isUniqueViolation = (err: unknown, on?: string) => violates(err, 'UNIQUE', on);

export const isForeignKeyViolation = (err: unknown) => violates(err, 'FOREIGN KEY');

function violates(err: unknown, kind: 'UNIQUE' | 'FOREIGN KEY', on?: string): boolean {
  const text = causes(err).join('\n');
  return text.includes(`${kind} constraint failed`) && (on === undefined || text.includes(on));
}

function causes(err: unknown): string[] {
  const out: string[] = [];
  for (let e: unknown = err, depth = 0; e !== undefined && e !== null && depth < 5; depth++) {
    out.push(String(e));
    e = (e as { cause?: unknown }).cause;
  }
  return out;
}
