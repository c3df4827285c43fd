/**
 * class-validator's message tokens, as toolwright fills them in: `$property` (the path), `$target`
 * (the class), `$value` (a caller's primitive, shortened; left as it is for anything else),
 * `$constraintN` (left as it is past the last constraint). A message function may answer a
 * different template per value; each call reads its own.
 */
import { IsIn, MaxLength, MinLength } from 'class-validator';
import { Expects, invoke, Tool } from 'toolwright';

class Order {
  @MinLength(3, { message: '$property of $target must be at least $constraint1 long, got $value ($constraint9, $$value)' })
  name!: string;

  @IsIn(['a', 'b'], {
    message: (args: { value: unknown }) => (args.value === 'x' ? '$property: x is never allowed' : '$property must be one of $constraint1, not $value'),
  })
  pick!: string;

  @MaxLength(4, { message: '$value$value is longer than $constraint1$constraint1' })
  code!: string;
}

@Tool()
@Expects(Order)
class PlaceOrder {
  call() {
    return 'ok';
  }
}

const messages = async (args: object) => (await invoke(PlaceOrder, args)).fieldErrors.map((error) => error.message);

describe('message tokens', () => {
  it('fills in every token, and leaves the ones with nothing to fill in', async () => {
    expect(await messages({ name: 'ab', pick: 'a', code: 'abcdef' })).toEqual([
      'name of Order must be at least 3 long, got ab ($constraint9, $ab)',
      'abcdefabcdef is longer than 44',
    ]);
  });

  it('a message function answers per value, and each call reads its own template', async () => {
    expect(await messages({ name: 'abc', pick: 'x', code: 'a' })).toEqual(['pick: x is never allowed']);
    expect(await messages({ name: 'abc', pick: 'z', code: 'a' })).toEqual(['pick must be one of a, b, not z']);
    expect(await messages({ name: 'abc', pick: 'x', code: 'a' })).toEqual(['pick: x is never allowed']);
  });

  it('leaves $value alone for a value that is not a string, number or boolean, and shortens a long one', async () => {
    expect(await messages({ name: 'abc', pick: ['x'], code: 'a' })).toContain('pick must be one of a, b, not $value');
    const long = 'y'.repeat(200);
    const [message] = await messages({ name: 'abc', pick: long, code: 'a' });
    expect(message).toBe(`pick must be one of a, b, not ${'y'.repeat(79)}…`);
  });
});
