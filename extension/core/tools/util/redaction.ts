// Redaction of what tools produce. The registry runs every result and progress chunk through the
// ports' redactor; tools that show text elsewhere (the terminal mirror) use the same one.
import { createRedactor, type Redactor } from '../../security/redact';
import { createStreamRedactor, type StreamRedactor } from '../../security/redact-stream';
import type { ToolPorts } from '../../ports';
import type { ContentBlock } from '../../providers/types';
import type { ToolResult } from '../types';

/**
 * Known key shapes only, for ports without a redactor. `assignments: false`: tool output is often
 * code, and `password = getPassword()` must reach the model as written.
 */
const SHAPES_ONLY = createRedactor([], { assignments: false });

/** The redactor for tool output: the ports' own (shapes and exact key values), else key shapes. */
export function toolRedactor(ports: Pick<ToolPorts, 'redact'>): Redactor {
  const own = ports.redact;
  return own ? (text) => own(text) : SHAPES_ONLY;
}

/** A result with every text redacted (text parts of model content; images are left alone). */
export function redactResult(result: ToolResult, redact: Redactor): ToolResult {
  const forModel: string | ContentBlock[] =
    typeof result.forModel === 'string'
      ? redact(result.forModel)
      : result.forModel.map((b) => (b.type === 'text' ? { ...b, text: redact(b.text) } : b));
  return { ...result, forModel, forUi: redact(result.forUi) };
}

/** Streams `emit`'s text through the redactor (keys cut across chunks are still found). */
export function redactingStream(redact: Redactor, emit: (text: string) => void): StreamRedactor {
  return createStreamRedactor(redact, emit);
}
