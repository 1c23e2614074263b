// What Research mode needs from its host: the web (search with failover, the guarded fetcher), the
// limits from settings, and the fast model for claim checks. The VS Code runtime implements it; the
// controller offers Research mode only when one is given.
import type { ClaimJudge } from './verify';
import type { ResearchLimits, ResearchServices } from './loop/research-run';

export interface ResearchHost {
  /**
   * The search and fetch services. Rejects with an Error whose `code` is 'no_key' and whose message
   * says exactly what to configure when no search provider has a key.
   */
  services(): Promise<ResearchServices>;
  limits(): ResearchLimits;
  /** The fast-model claim check; undefined: claims are checked lexically only. */
  judge?(): Promise<ClaimJudge | undefined>;
}
