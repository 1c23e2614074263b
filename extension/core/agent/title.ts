// A session title from the user's first message: its first meaningful line, trimmed to fit a list.
// A heuristic on purpose — a model call per new chat would cost tokens and time for a label.
const MAX = 60;

export function titleFromText(text: string): string {
  const line =
    text
      .split('\n')
      .map((l) => l.replace(/^[#>*\-\s`]+/, '').trim())
      .find((l) => l.length > 0) ?? '';
  const clean = line.replace(/\s+/g, ' ');
  if (!clean) return 'New chat';
  if (clean.length <= MAX) return clean;
  const cut = clean.slice(0, MAX);
  const space = cut.lastIndexOf(' ');
  return `${space > MAX / 2 ? cut.slice(0, space) : cut}…`;
}
