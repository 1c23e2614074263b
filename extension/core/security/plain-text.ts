// Text from files the user did not write (a cloned repository's settings, file names, model
// output) shown in a VS Code notification. Notifications turn `[label](target)` into a clickable
// link, and `command:` targets run commands with arguments — so a key name in a workspace file,
// read before the workspace is trusted, could offer the user a one-click command. VS Code's link
// syntax has no escape, so the pattern is broken instead: `](` never reaches a notification.

/** `text` with VS Code's linked-text syntax made inert (`[a](command:x)` → `[a] (command:x)`). */
export function withoutLinks(text: string): string {
  return text.replace(/\]\s*\(/g, '] (');
}

/** A name read from a file, quoted and capped for a message: `"name"`, long ones cut with `…`. */
export function quotedName(name: string, max = 80): string {
  const shown = name.length > max ? `${name.slice(0, max)}…` : name;
  return JSON.stringify(shown);
}
