/**
 * Validation rules: a rule is a sentence in English and Spanish naming `{field}`, given to a
 * valibot schema or action as its message (`v.regex(…, rules.integer)`). As a message it marks the
 * issue with itself, so it travels with the issue to the 400 that lists the problem, and nothing
 * has to be looked up by name: the base's rules are in ./rules.ts, an area's in its messages.ts.
 */
import type * as v from 'valibot';
import type { Lang } from './messages.ts';

type Issue = v.BaseIssue<unknown>;

const ruleKey: unique symbol = Symbol('rule');

/** An issue a rule was given as message for: the rule marked it. */
type MarkedIssue = Issue & { [ruleKey]?: Rule };

/** One rule: a valibot message that marks its issue (and answers its id as the issue's message). */
export interface Rule {
  (issue: Issue): string;
  readonly id: string;
  readonly en: string;
  readonly es: string;
}

/** The rules defineRules makes of their sentences. */
export type Rules<T extends Record<string, Record<Lang, string>>> = {
  readonly [K in keyof T & string]: Rule;
};

/**
 * One rule. Mark the call pure with a `@__PURE__` comment before it: esbuild does not see across
 * files that the call has no side effects, and unmarked, every bundle that imports anything of the
 * module would keep the rule whether its code names it or not.
 */
export function defineRule(id: string, sentences: Record<Lang, string>): Rule {
  const rule: Rule = Object.assign(
    (issue: Issue) => {
      (issue as MarkedIssue)[ruleKey] = rule;
      return id;
    },
    { id, en: sentences.en, es: sentences.es },
  );
  return rule;
}

/**
 * A folder's rules, each given its key as id; marked pure as defineRule's call is (an area's few
 * rules go together: a bundle that names one keeps them all).
 */
export function defineRules<const T extends Record<string, Record<Lang, string>>>(sentences: T): Rules<T> {
  const made: Record<string, Rule> = {};
  for (const [id, texts] of Object.entries(sentences)) made[id] = defineRule(id, texts);
  return made as Rules<T>;
}

/** The rule an issue was marked with, if its schema gave one as message. */
export const ruleOf = (issue: Issue): Rule | undefined => (issue as MarkedIssue)[ruleKey];
