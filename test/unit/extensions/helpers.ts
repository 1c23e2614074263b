// A workspace and a home folder on disk, read through the product's own workspace port.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { projectFilesOver, type ProjectFiles } from '../../../extension/core/extensions/project-files';
import { createNodePorts, makeTempWorkspace } from '../../fixtures/node-ports';

export async function projectOnDisk(
  workspace: Record<string, string>,
  home: Record<string, string> = {},
): Promise<{ root: string; home: string; files: ProjectFiles }> {
  const root = await makeTempWorkspace(workspace);
  const homeDir = await makeTempWorkspace(home);
  return { root, home: homeDir, files: projectFilesOver(createNodePorts({ root }).workspace, homeDir) };
}

export async function write(abs: string, text: string): Promise<void> {
  await fs.mkdir(path.dirname(abs), { recursive: true });
  await fs.writeFile(abs, text);
}
