import { readApiError } from '../../lib/api-error';
import type { RuleErrors } from './rules-editor';

/** Where the create form shows a problem: under a field, under a rule, or above the button. */
export type TopField = 'content' | 'recipient_user_id' | 'delivery_method' | 'deliver_at' | 'use_e2ee' | 'audio_base64' | 'rules';

export interface Errors {
  fields: Partial<Record<TopField, string>>;
  rules: Partial<Record<number, RuleErrors>>;
  /** Problems that belong to no single field (or a plain detail), shown above the button. */
  form: string[];
}

export const NO_ERRORS: Errors = { fields: {}, rules: {}, form: [] };
const TOP_FIELDS = new Set<string>(['content', 'recipient_user_id', 'delivery_method', 'deliver_at', 'use_e2ee', 'audio_base64', 'rules']);
const RULE_FIELDS = new Set<string>(['trigger_type', 'trigger_value', 'expire_window']);

/** Places the server's 422 details under their fields; whatever has no field goes above the button. */
export function placeServerErrors(error: unknown): Errors {
  const { fieldIssues: issues, detail } = readApiError(error);
  if (!issues) {
    return { ...NO_ERRORS, form: detail ? [detail] : [] };
  }
  const out: Errors = { fields: {}, rules: {}, form: [] };
  for (const { path, msg } of issues) {
    const [top, index, leaf] = path;
    if (top === 'rules' && typeof index === 'number') {
      const key = typeof leaf === 'string' && RULE_FIELDS.has(leaf) ? (leaf as keyof RuleErrors) : 'rule';
      const rule = out.rules[index] ?? {};
      out.rules[index] = rule;
      rule[key] ??= msg;
    } else if (typeof top === 'string' && TOP_FIELDS.has(top)) {
      out.fields[top as TopField] ??= msg;
    } else {
      out.form.push(msg);
    }
  }
  return out;
}
