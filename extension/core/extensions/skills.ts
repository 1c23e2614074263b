// Skills in Anthropic's format: a folder with a SKILL.md (frontmatter `name`, `description`; a body of
// instructions) and any files it refers to. Only names and descriptions go into the prompt; the model
// loads a body, and then the files it needs, with the `skill` tool (progressive disclosure). Scripts in a
// skill run through the ordinary command tool, under its rules and box.
import * as path from 'node:path';
import { fieldText, parseFrontmatter } from './frontmatter';
import type { ProjectFiles } from './project-files';

/** Anthropic's limits for the two fields that reach the prompt. */
const NAME_MAX = 64;
const DESCRIPTION_MAX = 1_024;
/** At most this many skills are listed (the list sits in every request's prefix). */
export const MAX_SKILLS = 100;
const SKILL_MAX_BYTES = 512_000;
/** SKILL.md files read at once. */
const READ_BATCH = 16;

/** Where skills are looked for, workspace first (a workspace skill wins over a user's of the same name). */
export const WORKSPACE_SKILL_DIRS = ['.sextant/skills', '.claude/skills'] as const;
export const USER_SKILL_DIRS = ['.sextant/skills', '.claude/skills'] as const;

export interface Skill {
  name: string;
  description: string;
  /** The skill's folder, absolute. */
  dir: string;
  /** `.claude/skills/pdf` or `~/.sextant/skills/pdf`: where the user finds it. */
  label: string;
  scope: 'workspace' | 'user';
  /** Its SKILL.md's frontmatter is broken (the file and line): shown to the user, never listed to the model. */
  problem?: string;
}

export async function discoverSkills(files: ProjectFiles): Promise<Skill[]> {
  const found = new Map<string, Skill>();
  const home = files.home();
  const places: Array<{ base: string; label: string; scope: Skill['scope']; ns?: string }> = [];
  for (const root of files.roots())
    for (const d of WORKSPACE_SKILL_DIRS) places.push({ base: path.join(root, d), label: d, scope: 'workspace' });
  if (home) for (const d of USER_SKILL_DIRS) places.push({ base: path.join(home, d), label: `~/${d}`, scope: 'user' });
  // An enabled plugin's skills are `plugin:skill`, as Claude Code names them.
  for (const p of files.plugins?.() ?? [])
    for (const base of p.skills)
      places.push({ base, label: `plugin ${p.name}/${path.relative(p.root, base)}`, scope: 'user', ns: p.name });
  // Every place is listed, and each place's SKILL.md files read, at once (one after the other, these small
  // reads were a good part of a first request's time); the skills are then taken in the same fixed order.
  const listed = await Promise.all(places.map((place) => files.list(place.base)));
  for (const [i, place] of places.entries()) {
    if (found.size >= MAX_SKILLS) break;
    const folders = (listed[i] ?? [])
      .filter((e) => e.type !== 'file')
      .map((e) => e.name)
      .sort();
    // In batches: a folder of thousands is not read (up to SKILL_MAX_BYTES each) all at once.
    let reads: Awaited<ReturnType<ProjectFiles['readText']>>[] = [];
    for (const [j, folder] of folders.entries()) {
      if (found.size >= MAX_SKILLS) break;
      if (j % READ_BATCH === 0)
        reads = await Promise.all(
          folders
            .slice(j, j + READ_BATCH)
            .map((f) => files.readText(path.join(place.base, f, 'SKILL.md'), SKILL_MAX_BYTES)),
        );
      const dir = path.join(place.base, folder);
      const read = reads[j % READ_BATCH];
      if (!read?.text) continue;
      const fm = parseFrontmatter(read.text);
      const label = `${place.label}/${folder}`;
      const own = (fieldText(fm, 'name') ?? folder).slice(0, NAME_MAX);
      const name = place.ns ? `${place.ns}:${own}` : own;
      const problem = fm.problem && `${label}/SKILL.md: ${fm.problem}`;
      const description = problem
        ? `Not loaded: ${problem}`
        : (fieldText(fm, 'description') ?? firstLine(fm.body)).slice(0, DESCRIPTION_MAX);
      if (found.has(name) || found.size >= MAX_SKILLS) continue;
      found.set(name, { name, description, dir, label, scope: place.scope, ...(problem ? { problem } : {}) });
    }
  }
  return [...found.values()];
}

/** The skills part of the system prompt: names and descriptions only, in a fixed order. */
export function skillsSection(all: readonly Skill[]): string {
  const skills = all.filter((s) => !s.problem);
  if (!skills.length) return '';
  return [
    '# Skills',
    'Skills are folders of instructions (and sometimes scripts or reference files) for particular tasks. ' +
      'When a task matches a skill below, call the `skill` tool with its name before you start, and follow ' +
      'what it says; load the files it mentions with the same tool only when you need them. Run a skill’s ' +
      'scripts with the command tool, from the folder the tool names.',
    '',
    ...skills.map((s) => `- ${s.name}: ${s.description.replace(/\s+/g, ' ').trim()}`),
  ].join('\n');
}

export type SkillLoad = { ok: true; text: string } | { ok: false; error: string };

/**
 * A skill's body (with its folder and the files in it), or one of its files when `file` is given.
 * `file` must stay inside the skill's folder.
 */
export async function loadSkill(files: ProjectFiles, skill: Skill, file?: string): Promise<SkillLoad> {
  if (file) {
    const abs = path.resolve(skill.dir, file);
    const rel = path.relative(skill.dir, abs);
    if (rel.startsWith('..') || path.isAbsolute(rel))
      return { ok: false, error: `"${file}" is outside the skill's folder; give a path inside ${skill.dir}.` };
    const read = await files.readText(abs, SKILL_MAX_BYTES);
    if (!read) return { ok: false, error: `The skill "${skill.name}" has no file "${file}".` };
    if (read.refused) return { ok: false, error: `"${file}" of the skill "${skill.name}" was ${read.refused}.` };
    if (read.text === undefined)
      return {
        ok: false,
        error: `"${file}" is ${read.size} bytes, too large to load; read parts of it with read_file.`,
      };
    return { ok: true, text: read.text };
  }
  const read = await files.readText(path.join(skill.dir, 'SKILL.md'), SKILL_MAX_BYTES);
  if (!read?.text) return { ok: false, error: `The skill "${skill.name}" has no readable SKILL.md any more.` };
  const listing = await listFiles(files, skill.dir, '', 0);
  return {
    ok: true,
    text: [
      `Skill "${skill.name}" — folder ${skill.dir}`,
      listing.length ? `Files in it (load one with skill {name, file}; run scripts from this folder):` : '',
      ...listing.map((f) => `- ${f}`),
      '',
      parseFrontmatter(read.text).body.trim(),
    ]
      .filter((l, i) => l !== '' || i > 1)
      .join('\n'),
  };
}

async function listFiles(files: ProjectFiles, dir: string, prefix: string, depth: number): Promise<string[]> {
  if (depth > 3) return [];
  const out: string[] = [];
  for (const e of (await files.list(dir)).sort((a, b) => a.name.localeCompare(b.name))) {
    if (out.length >= 200) break;
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    if (e.type === 'directory') out.push(...(await listFiles(files, path.join(dir, e.name), rel, depth + 1)));
    else if (rel !== 'SKILL.md') out.push(rel);
  }
  return out;
}

function firstLine(body: string): string {
  return (
    body
      .split(/\r?\n/)
      .find((l) => l.trim() && !l.startsWith('#'))
      ?.trim() ?? ''
  );
}
