// A ```mermaid block's source made ready for the renderer (beautiful-mermaid), shared by the chat view
// and the exports so both draw — and refuse — the same diagrams. Pure, imports nothing.
//
// beautiful-mermaid draws flowcharts, state, sequence, class, ER and xychart diagrams. Its parsers throw
// on a bad header but skip a statement they cannot read, so an unfinished or mistyped line would draw
// a diagram missing a part without a word. The checks below catch the common breaks (an arrow pointing
// to nothing, an unclosed bracket or quote, a subgraph without `end`, a message without a receiver) so
// such a block shows its source and the reason instead. Mermaid's accessibility lines (accTitle,
// accDescr) and `click` lines, which the renderer would draw as nodes, are taken out; the title and
// description become the picture's text alternative.

/** Why a diagram was not drawn; its message is the whole sentence shown above the source. */
export class DiagramError extends Error {
  override name = 'DiagramError';
}

export interface PreparedDiagram {
  /** The diagram's type as people say it: "Flowchart", "Sequence diagram", … */
  type: string;
  /** The source the renderer gets (accessibility and `click` lines removed, header normalised). */
  source: string;
  /** accTitle, or the front matter's `title:`. */
  title?: string;
  /** accDescr. */
  description?: string;
}

const SUPPORTED: ReadonlyArray<readonly [RegExp, string]> = [
  [/^(?:graph|flowchart)\b/i, 'Flowchart'],
  [/^stateDiagram(?:-v2)?$/i, 'State diagram'],
  [/^sequenceDiagram$/i, 'Sequence diagram'],
  [/^classDiagram$/i, 'Class diagram'],
  [/^erDiagram$/i, 'Entity relationship diagram'],
  [/^xychart(?:-beta)?\b/i, 'XY chart'],
];
export const SUPPORTED_DIAGRAMS = 'flowchart (graph), sequenceDiagram, classDiagram, stateDiagram, erDiagram, xychart';

/** Mermaid's other diagram types: named in the message when a report uses one. */
const OTHER_TYPES = new RegExp(
  String.raw`^(gantt|pie|mindmap|journey|gitGraph|timeline|quadrantChart|requirementDiagram|C4\w*|zenuml|info|` +
    String.raw`(?:sankey|block|packet|architecture|radar|treemap)(?:-beta)?|kanban)\b`,
  'i',
);

/** Sources past this size are not drawn: the layout runs on the view's thread. */
export const MAX_DIAGRAM_CHARS = 20_000;

/** Checks and normalises a ```mermaid block; throws DiagramError with the reason when it cannot be drawn. */
export function prepareMermaid(text: string): PreparedDiagram {
  if (text.length > MAX_DIAGRAM_CHARS)
    throw new DiagramError(
      `Diagram not drawn: its source is over ${MAX_DIAGRAM_CHARS.toLocaleString('en')} characters`,
    );
  const all = text.replace(/\r\n?/g, '\n').split('\n');
  // Each line with its number in the block, so a reason names the line the reader sees.
  let lines = all.map((text, i) => ({ text, n: i + 1 }));
  let title: string | undefined;
  // YAML front matter (`---` … `---`) before the header: only its title is read.
  if (lines.find((l) => l.text.trim())?.text.trim() === '---') {
    const start = lines.findIndex((l) => l.text.trim() === '---');
    const end = lines.findIndex((l, i) => i > start && l.text.trim() === '---');
    if (end < 0) throw new DiagramError('Diagram not drawn: its front matter (---) is not closed');
    title = lines
      .slice(start + 1, end)
      .map((l) => /^\s*title:\s*(.+)$/.exec(l.text)?.[1])
      .find(Boolean)
      ?.replace(/^["']|["']$/g, '');
    lines = lines.slice(end + 1);
  }
  let description: string | undefined;
  const kept: typeof lines = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].text.trim();
    const acc = /^acc(Title|Descr)\s*:\s*(.*)$/.exec(line);
    if (acc) {
      if (acc[1] === 'Title') title = acc[2].trim();
      else description = acc[2].trim();
      continue;
    }
    if (/^accDescr\s*\{/.test(line)) {
      const body: string[] = [line.replace(/^accDescr\s*\{/, '')];
      while (!body[body.length - 1].includes('}') && i + 1 < lines.length) body.push(lines[++i].text.trim());
      description = body.join(' ').replace(/\}.*$/, '').trim();
      continue;
    }
    // Interaction lines: nothing in a picture is clickable, and the renderer would draw `click` as a node.
    if (/^(?:click|href|callback)\s/.test(line)) continue;
    kept.push(lines[i]);
  }
  const headerAt = kept.findIndex((l) => l.text.trim() && !l.text.trim().startsWith('%%'));
  if (headerAt < 0) throw new DiagramError('Diagram not drawn: the block is empty');
  const header = kept[headerAt].text.trim().replace(/;$/, '');
  const type = SUPPORTED.find(([re]) => re.test(header))?.[1];
  if (!type) {
    const other = OTHER_TYPES.exec(header)?.[1];
    throw new DiagramError(
      other
        ? `Diagram type not supported: ${other}. Supported are ${SUPPORTED_DIAGRAMS}`
        : `Diagram not drawn: the first line must name a diagram type (such as "flowchart TD"), not "${clip(header)}"`,
    );
  }
  const body = kept.slice(headerAt + 1);
  checkStatements(type, body);
  // Mermaid lets `graph` go without a direction (top-down) and end the header with `;`.
  const head = type === 'Flowchart' && /^(?:graph|flowchart)$/i.test(header) ? `${header} TD` : header;
  const source = [head, ...body.map((l) => l.text)].join('\n').trim();
  return { type, source, ...(title ? { title } : {}), ...(description ? { description } : {}) };
}

/** An arrow at the end of a line, with or without a `|label|`: the line's target is missing. */
const DANGLING_ARROW = /(?:<?(?:--+|==+|-\.+-)(?:>|o|x)?|-->)\s*(?:\|[^|]*\|)?$/;
/** A sequence message whose receiver is missing: `Alice->>: Hi`. */
const NO_RECEIVER = /^[^:]*?(?:-{1,2}(?:>>|>|x|\)))[+-]?\s*:/;

function checkStatements(type: string, body: ReadonlyArray<{ text: string; n: number }>): void {
  let open = 0;
  for (const { text, n } of body) {
    const line = text.trim().replace(/;$/, '');
    if (!line || line.startsWith('%%')) continue;
    const where = `line ${n} ("${clip(line)}")`;
    if ((line.match(/"/g)?.length ?? 0) % 2 === 1)
      throw new DiagramError(`Diagram not drawn: ${where} has a quote that is not closed`);
    if (type === 'Flowchart' || type === 'State diagram') {
      if (/^subgraph\b/.test(line)) open++;
      if (line === 'end') open--;
      if (DANGLING_ARROW.test(line) && !/^(?:classDef|style|linkStyle|class)\s/.test(line))
        throw new DiagramError(`Diagram not drawn: ${where} ends with an arrow that points to nothing`);
      const unquoted = line.replace(/"[^"]*"/g, '');
      const opened = (unquoted.match(/[[({]/g)?.length ?? 0) - (unquoted.match(/[\])}]/g)?.length ?? 0);
      // `{` opens a composite state's block on its own line; `A>text]` closes what it never opened.
      if (opened > 0 && !(type === 'State diagram' && /\{$/.test(unquoted)))
        throw new DiagramError(`Diagram not drawn: ${where} has a bracket that is not closed`);
    }
    if (type === 'Sequence diagram' && NO_RECEIVER.test(line))
      throw new DiagramError(`Diagram not drawn: ${where} is a message without a receiver`);
  }
  if (open > 0) throw new DiagramError('Diagram not drawn: a subgraph is not closed with "end"');
}

/** The renderer's own error, as the reason shown above the source. */
export function diagramFailure(e: unknown): DiagramError {
  if (e instanceof DiagramError) return e;
  const m = (e instanceof Error ? e.message : String(e)).replace(/\s+/g, ' ').trim().slice(0, 300);
  return new DiagramError(`Diagram not drawn: ${m || 'the renderer gave no reason'}`);
}

function clip(s: string): string {
  return s.length > 60 ? `${s.slice(0, 59)}…` : s;
}
