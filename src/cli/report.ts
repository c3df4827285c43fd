import type { Finding } from './compare';
import type { DriftReport } from './drift';
import { kindWord } from './members';
import { painter } from './output';

/** `approve_loan v1`, `prompt review_loan v2`: a tool by its name, a member with its kind. */
function label(finding: Finding): string {
  return `${finding.kind === 'tool' ? '' : `${kindWord(finding.kind)} `}${finding.tool} v${finding.version}`;
}

/** The text report of `check` and `diff`: breaking changes with the fix, then the compatible ones. */
export function changesText(findings: readonly Finding[], against: string): string {
  const paint = painter(process.stdout);
  const lines: string[] = [];
  const where = (finding: Finding) => `${label(finding)}${finding.path ? ` ${finding.path}` : ''}`;
  const breaking = findings.filter((finding) => finding.breaking);
  const compatible = findings.filter((finding) => !finding.breaking);
  if (breaking.length === 0) lines.push(`${paint('green', 'no breaking changes')} against ${against}`);
  else {
    lines.push(paint('red', `${breaking.length} breaking change${breaking.length === 1 ? '' : 's'} against ${against}:`));
    for (const finding of breaking) lines.push(`  ${paint('red', '✗')} ${where(finding)}: ${finding.message}`);
    const removed = (finding: Finding) => finding.rule === 'tool-removed' || finding.rule === 'member-removed';
    const tools = new Map<string, Finding>();
    for (const finding of breaking) if (!removed(finding)) tools.set(`${finding.kind}:${finding.tool}@${finding.version}`, finding);
    for (const finding of tools.values()) {
      lines.push(
        `  ${paint('yellow', '→')} ${label(finding)}: declare @ToolVersion(${finding.version + 1}) on a new class for the changed contract and keep version ${finding.version} as it was.`,
      );
    }
    if (breaking.some((finding) => finding.rule === 'tool-removed')) {
      lines.push(
        `  ${paint('yellow', '→')} a removed tool or version breaks its callers: keep it (deprecate it in its description) until they have moved.`,
      );
    }
    if (breaking.some((finding) => finding.rule === 'member-removed')) {
      lines.push(
        `  ${paint('yellow', '→')} a removed resource, template or prompt (or version of one) breaks the clients that use it: keep it (deprecate it in its description) until they have moved.`,
      );
    }
  }
  if (compatible.length > 0) {
    lines.push(`${compatible.length} compatible change${compatible.length === 1 ? '' : 's'}:`);
    for (const finding of compatible) lines.push(`  ${paint('green', '✓')} ${where(finding)}: ${finding.message}`);
  }
  return `${lines.join('\n')}\n`;
}

export function driftText(report: DriftReport): string {
  const paint = painter(process.stdout);
  const lines: string[] = [];
  const checked = `${report.checked.length} DTO class${report.checked.length === 1 ? '' : 'es'} compared with the TypeScript compiler`;
  if (report.drift.length === 0) lines.push(`${paint('green', 'no compiler drift')}: ${checked}`);
  else {
    lines.push(paint('red', `compiler drift in ${report.drift.length} field${report.drift.length === 1 ? '' : 's'}`) + ` (${checked}):`);
    for (const drift of report.drift) {
      lines.push(
        `  ${paint('red', '✗')} ${drift.tool} v${drift.version} ${drift.dto}.${drift.property}: ${drift.aspect}: TypeScript says ${drift.typescript}, the schema says ${drift.reflected}`,
      );
    }
    lines.push(
      `  ${paint('yellow', '→')} make the declaration agree with the TypeScript type (@Field({ type, optional, nullable }), or the type itself).`,
    );
  }
  if (report.skipped.length > 0)
    lines.push(paint('dim', `  not compared (no single TypeScript declaration loaded): ${report.skipped.join(', ')}`));
  return `${lines.join('\n')}\n`;
}
