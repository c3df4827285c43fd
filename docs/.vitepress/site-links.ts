/**
 * Where the project lives, and how a heading becomes an anchor: one source of truth for the site
 * (docs/.vitepress/config.mts), the README and the link tests (test/docs/links.test.ts).
 *
 * The URLs come from package.json and nowhere else: `homepage` is the documentation site,
 * `repository.url` the source repository. A link written elsewhere (the README, a guide's link to
 * the API reference) spells them out, and the link test holds it to these.
 */
import manifest from '../../package.json';

/** A `repository.url` as a browser opens it: `git+https://github.com/o/r.git` → `https://github.com/o/r`. */
export function repositoryWebUrl(url: string): string {
  return url.replace(/^git\+/, '').replace(/\.git$/, '');
}

/** The documentation site, without a trailing slash: package.json `homepage`. */
export const siteUrl: string = manifest.homepage.replace(/\/+$/, '');

/** The source repository as a browser opens it: package.json `repository.url`. */
export const repositoryUrl: string = repositoryWebUrl(manifest.repository.url);

/**
 * The site path of an absolute link to the documentation site (`https://<site>/api/x/#y` →
 * `/api/x/#y`), or undefined for a link elsewhere. The site turns such links into its own paths, so
 * a page can link the API reference (which only the site has) and the link works on the repository
 * host too.
 */
export function sitePath(href: string): string | undefined {
  if (href === siteUrl) return '/';
  return href.startsWith(siteUrl + '/') || href.startsWith(siteUrl + '#') ? href.slice(siteUrl.length) || '/' : undefined;
}

/**
 * A heading's anchor as GitHub writes it, which the site uses too (config.mts `markdown.anchor`), so
 * that a link `page.md#anchor` works on both: the heading's text, lower-cased, without any character
 * but letters, digits, marks, `_`, `-` and spaces, each space a `-`. The second heading with the same
 * anchor gets `-1`, the third `-2` (pass one `seen` map per page).
 */
export function githubSlug(text: string, seen?: Map<string, number>): string {
  const base = text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
  if (!seen) return base;
  // github-slugger's counting: each repeat of `base` tries the next number until one is free.
  let slug = base;
  while (seen.has(slug)) {
    seen.set(base, seen.get(base)! + 1);
    slug = `${base}-${seen.get(base)}`;
  }
  seen.set(slug, 0);
  return slug;
}
