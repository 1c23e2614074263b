export interface Link {
  target: string;
  line: number;
  image: boolean;
}
export interface LinkProblem {
  file: string;
  line: number;
  target: string;
  problem: string;
}
/** The Markdown files whose links are checked, relative to `root`, sorted. */
export function documentationFiles(root: string): string[];
/** The text with fenced code blocks (and, unless `keepSpans`, inline code spans) blanked, line numbers kept. */
export function withoutCode(text: string, keepSpans?: boolean): string;
/** GitHub's heading anchor for a heading's text. */
export function slug(headingText: string): string;
/** Every anchor a Markdown file offers. */
export function anchorsOf(text: string): Set<string>;
/** The links and images of a Markdown text, code excluded. */
export function linksOf(text: string): Link[];
/** The broken relative links, anchors and images of the documentation under `root`. */
export function brokenLinks(root: string, files?: string[]): LinkProblem[];
/** One line per problem, as `file:line: target — problem`. */
export function formatProblems(problems: LinkProblem[]): string;
