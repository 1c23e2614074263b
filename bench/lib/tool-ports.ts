// Tool benchmarks run the tools on the same Node ports as the unit tests (test/fixtures/node-ports).
import type { ToolPorts } from '../../extension/core/ports';
import type { ToolContext } from '../../extension/core/tools/types';
import { createNodePorts, makeContext } from '../../test/fixtures/node-ports';

export function benchPorts(root: string, ripgrep: string | undefined): ToolPorts {
  return createNodePorts({ root, ripgrep, excludes: ['**/node_modules'] });
}

export function benchContext(ports: ToolPorts): ToolContext {
  return makeContext(ports, { callId: 'bench' });
}

export { grepTool } from '../../extension/core/tools/grep';
export { ripgrepArgs } from '../../extension/core/tools/util/grep-search';
