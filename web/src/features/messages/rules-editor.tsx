import { MESSAGE_RULE_TYPES, RULES_MAX, TRIGGER_LABELS, type TRuleInput, type MessageRuleType } from '@afterword/worker/contracts/messages';
import { Button } from '../../components/button';
import { TextField } from '../../components/field';
import { SelectField } from '../../components/select';
import { localDateToIso } from './format';

/** A rule as typed: the strings of its inputs, sent as they are (the server checks them). */
export interface RuleDraft {
  key: number;
  trigger_type: MessageRuleType;
  value: string;
  expire: string;
}

/** Errors the server placed on one rule: by input ('trigger_value', 'expire_window') or the rule as a whole ('rule'). */
export type RuleErrors = Partial<Record<'trigger_type' | 'trigger_value' | 'expire_window' | 'rule', string>>;

const TRIGGER_OPTIONS = MESSAGE_RULE_TYPES.map((t) => ({ value: t, label: TRIGGER_LABELS[t] }));

const VALUE_FIELD: Record<MessageRuleType, { label: string; type: 'number' | 'date'; hint: string }> = {
  missed_checkins: { label: 'Number of missed check-ins', type: 'number', hint: 'Released once you have missed this many check-ins in a row.' },
  fixed_date: { label: 'Date', type: 'date', hint: 'Released on this day (from midnight, your time).' },
  delay_after_death: { label: 'Days after death', type: 'number', hint: 'Released this many days after your death is confirmed.' },
};

let nextKey = 1;
export const newRule = (trigger_type: MessageRuleType = 'missed_checkins'): RuleDraft => ({ key: nextKey++, trigger_type, value: '', expire: '' });

/** The rule as the create call takes it: a fixed date is the start of that day in the browser's zone. */
export function toRuleInput(rule: RuleDraft): TRuleInput {
  const expire = rule.expire.trim();
  const trigger_value = rule.trigger_type === 'fixed_date' ? localDateToIso(rule.value) : rule.value.trim();
  return { trigger_type: rule.trigger_type, trigger_value, ...(expire ? { expire_window: expire } : {}) } as TRuleInput;
}

interface RulesEditorProps {
  rules: readonly RuleDraft[];
  onChange: (rules: RuleDraft[]) => void;
  errors?: Partial<Record<number, RuleErrors>>;
  /** An error about the rules as a whole (e.g. too many). */
  error?: string | null;
}

/** Add and remove delivery rules: missed check-ins (a count), a fixed date, or a delay after death (days). */
export function RulesEditor({ rules, onChange, errors = {}, error }: RulesEditorProps) {
  const update = (key: number, patch: Partial<RuleDraft>) => onChange(rules.map((r) => (r.key === key ? { ...r, ...patch } : r)));
  const remove = (key: number) => onChange(rules.filter((r) => r.key !== key));

  return (
    <fieldset className="fieldset rules-editor">
      <legend className="fieldset__legend">Delivery rules</legend>
      <p className="field__hint">
        Without rules, the message is delivered at its delivery time. With rules, it is delivered when any rule is met, and never before that time.
      </p>
      {error ? <p className="field__error">{error}</p> : null}
      {rules.length ? (
        <ol className="rules-editor__list">
          {rules.map((rule, i) => {
            const field = VALUE_FIELD[rule.trigger_type];
            const e = errors[i] ?? {};
            return (
              <li key={rule.key} className="rules-editor__item">
                <fieldset className="rule">
                  <legend className="rule__legend">Rule {i + 1}</legend>
                  {e.rule ? <p className="field__error">{e.rule}</p> : null}
                  <div className="form-row">
                    <SelectField
                      label="Trigger"
                      name={`rules.${i}.trigger_type`}
                      options={TRIGGER_OPTIONS}
                      value={rule.trigger_type}
                      onChange={(ev) => update(rule.key, { trigger_type: ev.target.value as MessageRuleType, value: '' })}
                      error={e.trigger_type}
                    />
                    <TextField
                      label={field.label}
                      name={`rules.${i}.trigger_value`}
                      type={field.type}
                      inputMode={field.type === 'number' ? 'numeric' : undefined}
                      min={field.type === 'number' ? 0 : undefined}
                      step={field.type === 'number' ? 1 : undefined}
                      value={rule.value}
                      onChange={(ev) => update(rule.key, { value: ev.target.value })}
                      hint={field.hint}
                      error={e.trigger_value}
                    />
                    <TextField
                      label="Expire window in days (optional)"
                      name={`rules.${i}.expire_window`}
                      type="number"
                      inputMode="numeric"
                      min={0}
                      step={1}
                      value={rule.expire}
                      onChange={(ev) => update(rule.key, { expire: ev.target.value })}
                      hint="After the rule is met, you have this many days to check in and call the release off."
                      error={e.expire_window}
                    />
                  </div>
                  <Button variant="ghost" onClick={() => remove(rule.key)}>
                    Remove rule<span className="visually-hidden"> {i + 1}</span>
                  </Button>
                </fieldset>
              </li>
            );
          })}
        </ol>
      ) : (
        <p className="muted rules-editor__empty">No rules: delivered at the delivery time.</p>
      )}
      <Button variant="secondary" onClick={() => onChange([...rules, newRule()])} disabled={rules.length >= RULES_MAX}>
        Add rule
      </Button>
      {rules.length >= RULES_MAX ? <p className="field__hint">A message can have at most {RULES_MAX} rules.</p> : null}
    </fieldset>
  );
}
