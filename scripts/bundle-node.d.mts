// Types for bundle-node.mjs, for the TypeScript tests that bundle a file themselves.
import type { BuildOptions, BuildResult } from 'esbuild';

export function bundleForNode(options: BuildOptions & { entry?: string }): Promise<BuildResult>;
