// The project's part of the system prompt: rules files, then the skills list, after the mode's prompt
// and environment. Its text depends only on the files' contents and their fixed order, so requests
// repeat it byte for byte (the provider's prompt cache keeps working) until a file changes.
import type { RulesFile } from './rules';
import { type Skill, skillsSection } from './skills';

export function rulesSection(rules: readonly RulesFile[]): string {
  const given = rules.filter((r) => r.text);
  if (!given.length) return '';
  return [
    '# Rules from the user and the project',
    'The files below are standing instructions from the user and this project (AGENTS.md, CLAUDE.md and ' +
      'the like). Follow them; when one conflicts with what the user asks in this chat, the user’s message wins.',
    ...given.map((r) => `\n<rules file="${r.label}">\n${r.text.trim()}\n</rules>`),
  ].join('\n');
}

/** The text appended to the mode's system prompt; '' when the project has neither rules nor skills. */
export function projectPromptSection(rules: readonly RulesFile[], skills: readonly Skill[]): string {
  return [rulesSection(rules), skillsSection(skills)].filter(Boolean).join('\n\n');
}
