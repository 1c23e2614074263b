// The attribute and metric names the export uses. Where OpenTelemetry's GenAI semantic conventions name a
// thing, that name (as in @opentelemetry/semantic-conventions 1.45, `incubating`); what they do not cover
// (cost, approvals, tool outcomes, research phases) is under `sextant.`. Written out here rather than
// imported: the incubating module is large, and these strings are the contract with the user's dashboards.
export const GEN_AI = {
  operationName: 'gen_ai.operation.name',
  providerName: 'gen_ai.provider.name',
  requestModel: 'gen_ai.request.model',
  conversationId: 'gen_ai.conversation.id',
  agentName: 'gen_ai.agent.name',
  finishReasons: 'gen_ai.response.finish_reasons',
  inputTokens: 'gen_ai.usage.input_tokens',
  outputTokens: 'gen_ai.usage.output_tokens',
  cacheReadTokens: 'gen_ai.usage.cache_read.input_tokens',
  tokenType: 'gen_ai.token.type',
  toolName: 'gen_ai.tool.name',
  toolCallId: 'gen_ai.tool.call.id',
  toolType: 'gen_ai.tool.type',
  toolArguments: 'gen_ai.tool.call.arguments',
  inputMessages: 'gen_ai.input.messages',
} as const;

export const OPERATION = { chat: 'chat', executeTool: 'execute_tool', invokeAgent: 'invoke_agent' } as const;

export const ERROR_TYPE = 'error.type';

export const SEXTANT = {
  requestId: 'sextant.request.id',
  mode: 'sextant.mode',
  outcome: 'sextant.outcome',
  costUsd: 'sextant.cost.usd',
  toolDecision: 'sextant.tool.decision',
  toolDecidedBy: 'sextant.tool.decided_by',
  toolOutcome: 'sextant.tool.outcome',
  approvalOutcome: 'sextant.approval.outcome',
  errorSource: 'sextant.error.source',
  researchPhase: 'sextant.research.phase',
} as const;

export const METRIC = {
  /** GenAI: histogram of tokens per model call, by gen_ai.token.type (input | output). */
  tokenUsage: 'gen_ai.client.token.usage',
  /** GenAI: histogram of a model call's duration in seconds. */
  operationDuration: 'gen_ai.client.operation.duration',
  /** Prompt tokens read from the provider's cache (a part of the input tokens). */
  cachedTokens: 'sextant.client.token.cached',
  costUsd: 'sextant.cost',
  toolCalls: 'sextant.tool.calls',
  approvals: 'sextant.approvals',
  errors: 'sextant.errors',
} as const;

/**
 * GenAI's provider name: `anthropic` for the Anthropic API; `openai` for OpenAI itself; for another
 * OpenAI-compatible server (OpenRouter, Ollama…) and VS Code's models, the instance name from settings.
 */
export function providerName(kind: string, name: string): string {
  return kind === 'anthropic' ? 'anthropic' : name;
}
