// The `skill` tool: how the model loads a skill it chose from the list in its prompt — the body first,
// then any file of the skill's folder it needs. Skills are read afresh, so one added mid-chat loads too.
import * as z from 'zod';
import { defineTool, errorResult } from '../tools/types';
import type { ProjectFiles } from './project-files';
import { discoverSkills, loadSkill } from './skills';

const input = z.object({
  name: z.string().min(1).describe('The skill’s name, as listed under "Skills" in the system prompt.'),
  file: z
    .string()
    .optional()
    .describe(
      'A file inside the skill’s folder to load (as listed when the skill was loaded). Omit for the skill itself.',
    ),
});

export function createSkillTool(files: ProjectFiles) {
  return defineTool({
    name: 'skill',
    description:
      'Loads a skill listed in the system prompt: its instructions, the folder it lives in and the files in ' +
      'it. Call it before starting a task a skill describes; call it again with `file` to read one of the ' +
      'skill’s files when its instructions point you there. Run its scripts with the command tool.',
    input,
    kind: 'read',
    // It reads only inside the skills' own folders (loadSkill refuses anything else): judged by name.
    permission: { subject: 'text', text: (i) => (i.file ? `${i.name}/${i.file}` : i.name) },
    modes: ['agent', 'plan'],
    subject: (i) => (i.file ? `${i.name}/${i.file}` : i.name),
    async execute(i) {
      const skills = await discoverSkills(files);
      const skill = skills.find((s) => s.name === i.name);
      if (!skill) {
        const names = skills.map((s) => s.name).join(', ') || 'none';
        return errorResult(`No skill named "${i.name}". Skills available: ${names}.`);
      }
      const loaded = await loadSkill(files, skill, i.file);
      if (!loaded.ok) return errorResult(loaded.error);
      const lines = loaded.text.split('\n').length;
      return { forModel: loaded.text, forUi: `${i.file ?? 'SKILL.md'} (${lines} lines)`, isError: false };
    },
  });
}
