// What the project and the user bring to every chat — rules files, skills and slash commands — read
// afresh for each request (a few small reads), so an edit counts from the next request on.
import type { ProjectContextInfo } from '../../protocol';
import { estimateTextTokens } from '../util/tokens';
import type { ProjectFiles } from './project-files';
import { projectPromptSection, rulesSection } from './project-prompt';
import { discoverRules, type RulesFile } from './rules';
import { commandDirs, markdownCommandSource, SlashCommandRegistry } from './slash-commands';
import { discoverSkills, type Skill, skillsSection } from './skills';

export interface LoadedProject {
  rules: RulesFile[];
  skills: Skill[];
  /** The text appended to the system prompt. */
  section: string;
}

export class ProjectContext {
  readonly commands = new SlashCommandRegistry();

  constructor(readonly files: ProjectFiles) {
    this.commands.add(markdownCommandSource(files, () => commandDirs(files)));
  }

  /** Rules always; the skills list only where the `skill` tool is there to load them. */
  async load(withSkills: boolean): Promise<LoadedProject> {
    const [rules, skills] = await Promise.all([
      discoverRules(this.files),
      withSkills ? discoverSkills(this.files) : Promise.resolve([]),
    ]);
    return { rules, skills, section: projectPromptSection(rules, skills) };
  }

  /** What the context popover and the slash menu show. */
  async info(): Promise<ProjectContextInfo> {
    const [rules, skills, commands] = await Promise.all([
      discoverRules(this.files),
      discoverSkills(this.files),
      this.commands.list(),
    ]);
    return {
      rules: rules.map((r) => ({
        label: r.label,
        scope: r.scope,
        tokens: r.tokens,
        ...(r.cutFrom !== undefined ? { cutFrom: r.cutFrom } : {}),
        ...(r.note ? { note: r.note } : {}),
      })),
      rulesTokens: estimateTextTokens(rulesSection(rules)),
      skills: skills.map((s) => ({ name: s.name, description: s.description, source: s.label })),
      skillsTokens: estimateTextTokens(skillsSection(skills)),
      commands: commands.map((c) => ({
        name: c.name,
        description: c.description,
        source: c.source,
        ...(c.argumentHint ? { argumentHint: c.argumentHint } : {}),
      })),
    };
  }
}
