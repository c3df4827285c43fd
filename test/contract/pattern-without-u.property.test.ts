/**
 * A `@Matches` pattern written without the `u` flag means one thing to class-validator (JavaScript
 * reads it without the flag, ECMA-262 Annex B) and may mean another to JSON Schema, which reads
 * `pattern` with the flag (ajv compiles it with `u`): `\u{2}`, `\p{L}`, `\-`, a lone `{`, `\1`
 * without a group, `.` over an emoji. For random patterns built from exactly those pieces, the
 * pattern the schema shows, read with the flag, accepts exactly the text the expression accepts
 * without it; where there is none, the schema shows no pattern and says why in a warning.
 */
import 'reflect-metadata';
import fc from 'fast-check';
import { Matches } from 'class-validator';
import { schemaOf } from 'toolwright';

/** Pieces whose meaning differs between the two readings, and plain ones around them. */
const PIECES = [
  'a', 'b', 'u', 'p', '-', 'é', '/', '\\u{2}', '\\u', '\\u0061', '\\x61', '\\x6', '\\p{L}', '\\P{L}', '\\-', '\\a', '\\k', '{', '}', ']',
  '{2}', '{1,}', '{,2}', '*', '+', '?', '|', '^', '$', '(', ')', '(?:', '(?=', '(?!', '(?<=', '(?<!', '(?<n>', '\\k<n>', '\\1', '\\2',
  '\\10', '\\01', '\\8', '\\0', '[a-c]', '[\\w-a]', '[\\d-]', '[]', '[\\1]', '[\\u{2}]', '[\\-]', '[\\b]', '\\b', '\\B', '\\d', '\\w', '\\s',
  '.', '[^a]', '\\S', '😀', '\\uD83D', '\\cA', '\\c1', '[\\c1]', '\\/', '\\t',
];
/** Text the pieces can match, with characters outside the Basic Multilingual Plane (never a lone surrogate). */
const CHARACTERS = ['a', 'b', 'u', 'p', '-', '{', '}', ']', '\u0002', '\u0001', '\b', '8', '0', '😀', '𝒳', 'é', 'L', ' ', '\n', '/', '\\', 'A', '_', '1', '\t'];

it('the pattern shown, read with the u flag, accepts exactly what the expression accepts without it; none shown is warned', () => {
  const warnings: string[] = [];
  const spy = jest.spyOn(process, 'emitWarning').mockImplementation(((message: string) => warnings.push(message)) as never);
  let shown = 0;
  let withheld = 0;
  try {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...PIECES), { maxLength: 6 }),
        fc.array(fc.array(fc.constantFrom(...CHARACTERS), { maxLength: 5 }).map((chars) => chars.join('')), { minLength: 25, maxLength: 25 }),
        (pieces, texts) => {
          const source = pieces.join('');
          let expression: RegExp;
          try {
            expression = new RegExp(source);
          } catch {
            return; // not a pattern class-validator could run either
          }
          class Dto {
            @Matches(expression) value!: string;
          }
          warnings.length = 0;
          const pattern = (schemaOf(Dto).properties as Record<string, { pattern?: string }>).value.pattern;
          if (pattern === undefined) {
            withheld++;
            expect(warnings).toEqual([expect.stringContaining('Dto.value uses @Matches, which JSON Schema cannot express')]);
            expect(warnings[0]).toContain('write it with the u flag');
            return;
          }
          shown++;
          const shownReading = new RegExp(pattern, 'u');
          const differ = ['', ...texts].filter((text) => shownReading.test(text) !== expression.test(text));
          expect([source, pattern, differ]).toEqual([source, pattern, []]);
        },
      ),
      { numRuns: 1500, seed: 36 },
    );
  } finally {
    spy.mockRestore();
  }
  // Both answers really happen: most patterns have a translation, and the rest are withheld.
  expect(shown).toBeGreaterThan(400);
  expect(withheld).toBeGreaterThan(100);
});
