// Whether the user's answer to an approval card still speaks for the server as it is now.
//
// The card carries the hashes it showed (the configuration's, and for a changed tool list the whole
// list's). If the server changed after the card was drawn, an approval would cover something the user
// never saw — so it counts only while those hashes are current. A denial never loosens anything, so the
// caller lets it hold whatever the card showed.
import type { McpApproval } from '../../protocol';

/** The hashes an approval card showed, sent back with the user's answer. */
export interface ShownCard {
  configHash: string;
  toolsHash?: string;
}

export function cardIsCurrent(card: ShownCard, now: McpApproval): boolean {
  if (card.configHash !== now.configHash) return false;
  // Only a changed tool list is approved by its list's hash; a new server's card has none to compare.
  return now.reason !== 'tools_changed' || card.toolsHash === now.toolsHash;
}
