/**
 * The links of a Markdown document and the anchors of its headings, as the link tests need them
 * (test/docs/links.test.ts, test/docs/site-build.test.ts, test/package/consumer.test.ts). A plain
 * scan, not a Markdown renderer: fenced code blocks and inline code are left out, the rest is
 * `[text](target)`, `![alt](target)`, `<a href="target">` and, in a VitePress front matter, `link:`.
 */
import { githubSlug } from '../../docs/.vitepress/site-links';

export interface MarkdownLink {
  /** As written: `./mcp.md#limits`, `https://…`, `#anchor`. */
  readonly target: string;
  /** The document's line (1-based). */
  readonly line: number;
}

/** The document's lines, with fenced code blocks blanked (line numbers kept). */
function proseLines(markdown: string): string[] {
  let fence: string | undefined;
  return markdown.split('\n').map((line) => {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence) {
      if (marker && marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) fence = undefined;
      return '';
    }
    if (marker) {
      fence = marker;
      return '';
    }
    return line;
  });
}

/** The front matter's lines (between the leading `---` lines), or none. */
function frontMatter(markdown: string): string[] {
  const lines = markdown.split('\n');
  if (lines[0] !== '---') return [];
  const end = lines.indexOf('---', 1);
  return end < 0 ? [] : lines.slice(1, end);
}

/** Every link target of the document, where it is. */
export function markdownLinks(markdown: string): MarkdownLink[] {
  const links: MarkdownLink[] = [];
  const matter = frontMatter(markdown);
  matter.forEach((line, index) => {
    const link = /^\s*-?\s*link:\s*(\S+)\s*$/.exec(line);
    if (link) links.push({ target: link[1], line: index + 2 });
  });
  // Inline code spans emptied: a link shown as code is not a link.
  const lines = proseLines(markdown).map((line) => line.replace(/(`+)(?:(?!\1)[\s\S])*?\1/g, '``'));
  for (let index = matter.length ? matter.length + 2 : 0; index < lines.length; index++) {
    for (const match of lines[index].matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)|<a\b[^>]*\bhref\s*=\s*["']([^"']+)["']/gi)) {
      links.push({ target: match[1] ?? match[2], line: index + 1 });
    }
  }
  return links;
}

/** A heading's text as its page shows it: code spans' content, a link's text, no emphasis or tags. */
function headingText(source: string): string {
  return source
    .replace(/\s+#+\s*$/, '')
    .split(/(`+[^`]*`+)/)
    .map((part, index) =>
      index % 2
        ? part.replace(/^`+|`+$/g, '')
        : part
            .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
            .replace(/<[^>]+>/g, '')
            .replace(/[*]+/g, ''),
    )
    .join('');
}

/** The anchors of the document's headings (`#`…`######`, outside code), as GitHub and the site write them. */
export function headingAnchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const line of proseLines(markdown.replace(/^---\n[\s\S]*?\n---\n/, (matter) => '\n'.repeat(matter.split('\n').length - 1)))) {
    const heading = /^ {0,3}#{1,6}\s+(.*)$/.exec(line);
    if (heading) anchors.add(githubSlug(headingText(heading[1]), seen));
  }
  return anchors;
}
