// Session titles from the first exchange. A heuristic, not a model call: it costs nothing, works
// offline and is good enough for a history list — the first meaningful line of the user's
// message, stripped of Markdown and @-mentions, cut at a word boundary. When the user wrote
// almost nothing ("hi", "?"), the start of the answer is used instead.
const MAX = 60;

function clean(text: string): string {
  return text
    .replace(/```[\s\S]*?(```|$)/g, ' ')
    .replace(/`([^`]*)`/g, '$1')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/(^|\s)[@/][\w./:-]+/g, ' ')
    .replace(/^\s*(#{1,6}|[-*+>]|\d+[.)])\s+/gm, '')
    .replace(/[*_~]{1,3}([^*_~]+)[*_~]{1,3}/g, '$1')
    .replace(/https?:\/\/\S+/g, ' ');
}

function firstLine(text: string): string {
  for (const line of clean(text).split('\n')) {
    const t = line.replace(/\s+/g, ' ').trim();
    if (t.replace(/[^\p{L}\p{N}]/gu, '').length >= 3) return t;
  }
  return '';
}

function cut(s: string): string {
  const sentence = /^(.{12,}?[.!?])(\s|$)/u.exec(s);
  let t = sentence && sentence[1].length <= MAX ? sentence[1].replace(/[.]$/, '') : s;
  if (t.length > MAX) {
    const space = t.lastIndexOf(' ', MAX - 1);
    t = `${t.slice(0, space > MAX / 2 ? space : MAX - 1).replace(/[\s,;:.-]+$/, '')}…`;
  }
  return t.charAt(0).toUpperCase() + t.slice(1);
}

/** A title for a session from its first user message and (optionally) the first answer. */
export function generateTitle(userText: string, assistantText = ''): string {
  const user = firstLine(userText);
  if (user.length >= 8 || (user && !assistantText)) return cut(user);
  const answer = firstLine(assistantText);
  if (answer) return cut(answer);
  return user ? cut(user) : 'New chat';
}
