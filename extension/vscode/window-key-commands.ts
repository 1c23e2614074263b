// The window's key commands in one place: Set / Clear API Key (model providers; embeddings may use the same
// keys, so a change re-configures them) and Set / Clear Search API Key (web search providers).
import type { SecretsPort } from '../core/ports';
import type { ProviderConfig } from '../core/providers/types';
import type { SearchSettings } from '../core/web/search/settings';
import { KeyCommands } from './key-commands';
import { SearchKeyCommands } from './search-key-commands';

export function windowKeyCommands(o: {
  secrets: SecretsPort;
  configs: () => ProviderConfig[];
  /** A provider's key changed: embeddings may use it. */
  providerKeyChanged: () => void;
  searchSettings: () => SearchSettings;
  /** A search key changed: the providers' key list is read again. */
  searchKeyChanged: () => void;
}) {
  const keys = new KeyCommands(o.secrets, o.configs, o.providerKeyChanged);
  const search = new SearchKeyCommands(o.secrets, o.searchSettings, process.env, o.searchKeyChanged);
  return {
    setApiKey: () => keys.setApiKey(),
    clearApiKey: () => keys.clearApiKey(),
    setSearchApiKey: () => search.setSearchApiKey(),
    clearSearchApiKey: () => search.clearSearchApiKey(),
  };
}
