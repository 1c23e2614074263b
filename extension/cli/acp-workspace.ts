// The workspace port of an ACP session whose client offers its file system (`fs.readTextFile` /
// `fs.writeTextFile`): the editor's view of a text file. Reads of a text file take the client's text
// (an unsaved buffer included), as the VS Code host takes a dirty editor's; a change to an existing file
// goes to the client (the edit shows, and undoes, in the editor) and to the disk too, because the tools
// verify what landed and commands read the disk. Everything else — listing, stat, binary files, new
// files, commands — stays local, as in `sextant -p`.
import type * as acp from '@agentclientprotocol/sdk';
import type { WorkspacePort } from '../core/ports';
import type { StderrLog } from './log';

export interface ClientFiles {
  client: acp.AgentContext;
  capabilities: acp.FileSystemCapabilities | undefined;
  sessionId(): string;
  log: StderrLog;
}

export function acpWorkspace(base: WorkspacePort, files: ClientFiles): WorkspacePort {
  const { client, capabilities, log } = files;
  return {
    ...base,
    dirtyText: !capabilities?.readTextFile
      ? base.dirtyText
      : async (absPath) => {
          try {
            const res = await client.request('fs/read_text_file', { sessionId: files.sessionId(), path: absPath });
            return res.content;
          } catch (err) {
            // The client could not read it (gone, not text): the disk's bytes, already read, stand.
            log.info(`fs/read_text_file ${absPath}: ${log.redact(String(err))}`);
            return base.dirtyText(absPath);
          }
        },
    applyTextEdit: !capabilities?.writeTextFile
      ? base.applyTextEdit
      : async (absPath, newText, encodedBytes) => {
          await client.request('fs/write_text_file', { sessionId: files.sessionId(), path: absPath, content: newText });
          await base.writeFile(absPath, encodedBytes);
          return 'editor';
        },
  };
}
