// Glob → RegExp with the semantics of .gitignore and ripgrep's --glob: `*` and `?` never cross a
// `/`, `**` spans directories, `[...]` classes, `{a,b}` alternation, and `*` matches dotfiles.
// Written here (rather than a dependency: picomatch's bash-style dot rules and options would be
// configured away, and gitignore anchoring sits on top anyway). It lives below both the file tools
// and the permission policy, which share it.

function classToRegex(glob: string, start: number): { src: string; end: number } | undefined {
  let i = start + 1;
  let negate = false;
  if (glob[i] === '!' || glob[i] === '^') {
    negate = true;
    i++;
  }
  let body = '';
  let first = true;
  while (i < glob.length && (glob[i] !== ']' || first)) {
    const c = glob[i];
    if (c === '\\' && i + 1 < glob.length) {
      body += `\\${glob[i + 1]}`;
      i += 2;
    } else {
      body += c === '^' || c === '\\' || c === '[' ? `\\${c}` : c;
      i++;
    }
    first = false;
  }
  if (i >= glob.length) return undefined;
  return { src: negate ? `[^/${body}]` : `(?!/)[${body}]`, end: i };
}

/** The regex source (no anchors) for a glob. */
export function globSource(glob: string): string {
  let out = '';
  let braceDepth = 0;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '*') {
      if (glob[i + 1] === '*') {
        const atStart = i === 0 || glob[i - 1] === '/';
        const j = i + 2;
        if (atStart && (j === glob.length || glob[j] === '/')) {
          if (j === glob.length) {
            out += '.*';
            i = j - 1;
          } else {
            out += '(?:.*/)?';
            i = j;
          }
          continue;
        }
        out += '[^/]*';
        i++;
        continue;
      }
      out += '[^/]*';
    } else if (c === '?') out += '[^/]';
    else if (c === '[') {
      const cls = classToRegex(glob, i);
      if (cls) {
        out += cls.src;
        i = cls.end;
      } else out += '\\[';
    } else if (c === '{') {
      braceDepth++;
      out += '(?:';
    } else if (c === '}' && braceDepth > 0) {
      braceDepth--;
      out += ')';
    } else if (c === ',' && braceDepth > 0) out += '|';
    else if (c === '\\' && i + 1 < glob.length) {
      out += escapeRe(glob[i + 1]);
      i++;
    } else out += escapeRe(c);
  }
  while (braceDepth-- > 0) out += ')';
  return out;
}

function escapeRe(c: string): string {
  return /[.*+?^${}()|[\]\\/]/.test(c) ? `\\${c}` : c;
}

/** A standard glob matched against a whole relative path (`*.ts` matches only the top level). */
export function compileGlob(glob: string, opts: { caseInsensitive?: boolean } = {}): RegExp {
  const g = glob.startsWith('./') ? glob.slice(2) : glob.replace(/^\/+/, '');
  return new RegExp(`^${globSource(g)}$`, opts.caseInsensitive ? 'i' : '');
}

export interface GitignoreRule {
  negate: boolean;
  dirOnly: boolean;
  re: RegExp;
}

/**
 * One line of a .gitignore (or one ripgrep --glob) compiled to a rule matched against a path
 * relative to the file's folder. Returns undefined for blanks and comments.
 */
export function compileGitignoreLine(raw: string, caseInsensitive = false): GitignoreRule | undefined {
  let line = raw.replace(/\r$/, '');
  if (line === '' || line.startsWith('#')) return undefined;
  // Trailing spaces are ignored unless escaped.
  line = line.replace(/(?<!\\)\s+$/, '');
  if (line === '') return undefined;
  let negate = false;
  if (line.startsWith('!')) {
    negate = true;
    line = line.slice(1);
  } else if (line.startsWith('\\!') || line.startsWith('\\#')) line = line.slice(1);
  let dirOnly = false;
  if (line.endsWith('/') && line.length > 1) {
    dirOnly = true;
    line = line.slice(0, -1);
  }
  let anchored = line.includes('/');
  if (line.startsWith('/')) line = line.slice(1);
  else if (line.startsWith('**/')) {
    line = line.slice(3);
    anchored = false;
  }
  const body = globSource(line);
  const src = anchored ? `^${body}$` : `^(?:.*/)?${body}$`;
  return { negate, dirOnly, re: new RegExp(src, caseInsensitive ? 'i' : '') };
}

export function parseGitignore(text: string): GitignoreRule[] {
  const rules: GitignoreRule[] = [];
  for (const line of text.split('\n')) {
    const r = compileGitignoreLine(line);
    if (r) rules.push(r);
  }
  return rules;
}

/** 'ignore' | 'whitelist' | undefined for the last rule that matches. */
export function matchRules(rules: GitignoreRule[], rel: string, isDir: boolean): 'ignore' | 'whitelist' | undefined {
  for (let i = rules.length - 1; i >= 0; i--) {
    const r = rules[i];
    if (r.dirOnly && !isDir) continue;
    if (r.re.test(rel)) return r.negate ? 'whitelist' : 'ignore';
  }
  return undefined;
}
