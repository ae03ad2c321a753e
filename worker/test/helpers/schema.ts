import { schema } from '@afterword/db';
import { is } from 'drizzle-orm';
import { getTableConfig, SQLiteTable } from 'drizzle-orm/sqlite-core';

/** Every table of the drizzle schema, read from the schema itself (a new table is in it the day it is added). */
export const schemaTables = (Object.values(schema) as unknown[]).filter((t): t is SQLiteTable => is(t, SQLiteTable)).map((t) => getTableConfig(t));
