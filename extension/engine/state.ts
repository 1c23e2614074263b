// Small values a host keeps for the engine between runs (the research scope, MCP and hook decisions,
// the reasoning choice per model): VS Code's Memento in the extension, a JSON file on the command line.
export interface KeyValueState {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): PromiseLike<void>;
}
