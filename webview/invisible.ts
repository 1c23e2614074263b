// Characters that change how text reads without being seen: bidirectional overrides and isolates
// (a command can look like `ls` while running something else — "Trojan Source"), zero-width
// characters and control characters. On an approval card they are shown as visible markers, so
// what the user approves is what runs.
const INVISIBLE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/g;

export interface Revealed {
  text: string;
  /** How many characters were made visible. */
  count: number;
}

/** Replaces each invisible character with a visible `⟦U+202E⟧` marker; newlines and tabs stay. */
export function revealInvisible(text: string): Revealed {
  let count = 0;
  const shown = text.replace(INVISIBLE, (c) => {
    count++;
    return `⟦U+${c.codePointAt(0)?.toString(16).toUpperCase().padStart(4, '0')}⟧`;
  });
  return { text: shown, count };
}
