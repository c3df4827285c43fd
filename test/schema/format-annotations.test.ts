/**
 * `@IsEmail`, `@IsUrl` and the date-string decorators tell a model what the value means: the input
 * schema shows `format` (`email`, `uri`, `date-time`) as an annotation, JSON Schema 2020-12's
 * reading of it. class-validator is the assertion; no validator toolwright compiles asserts these
 * formats (they refuse values class-validator accepts), and the projections that would assert them
 * do not show them: OpenAI's strict mode, and output schemas (MCP clients check structured content
 * against them with every format).
 */
import 'reflect-metadata';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { IsDateString, IsEmail, IsISO8601, IsRFC3339, IsUrl, IsUUID } from 'class-validator';
import { Expects, Exposes, Field, inputSchema, invoke, outputSchema, Tool } from 'toolwright';
import { connectInMemory } from '../helpers/mcp';

class Contact {
  @IsEmail() email!: string;
  @IsUrl() site!: string;
  @IsDateString() since!: string;
  @IsISO8601() until!: string;
  @IsRFC3339() at!: string;
  @IsEmail({}, { each: true }) cc!: string[];
  @IsUUID() id!: string;
}

@Tool({ name: 'save_contact', description: 'Saves a contact' })
@Expects(Contact)
@Exposes(Contact)
class SaveContact {
  call(input: Contact) {
    return input;
  }
}

/** Values class-validator accepts and JSON Schema's formats (ajv-formats) refuse. */
const accepted = {
  email: 'a@bücher.de',
  site: 'example.com',
  since: '2024-01-01',
  until: '2024-W01',
  at: '2024-01-01T10:00:00Z',
  cc: ['ü@example.com'],
  id: '123e4567-e89b-12d3-a456-426614174000',
};

const ajv = new Ajv2020();
addFormats(ajv);
/** Does JSON Schema's format (as ajv-formats asserts it) take the text? */
const holds = (format: string, text: string) => ajv.validate({ type: 'string', format }, text);

describe('format annotations from class-validator', () => {
  it('the input schema shows each as format, in both dialects; uuid stays an asserted format', () => {
    const expected = {
      email: { type: 'string', format: 'email', minLength: 1 },
      site: { type: 'string', format: 'uri', minLength: 1 },
      since: { type: 'string', format: 'date-time', minLength: 1 },
      until: { type: 'string', format: 'date-time', minLength: 1 },
      at: { type: 'string', format: 'date-time', minLength: 1 },
      cc: { type: 'array', items: { type: 'string', format: 'email' }, minItems: 1 },
      id: { type: 'string', format: 'uuid' },
    };
    expect(inputSchema(SaveContact).properties).toEqual(expected);
    expect(inputSchema(SaveContact, { dialect: 'draft-07' }).properties).toEqual(expected);
  });

  it('values the formats refuse run, as class-validator accepts them; what it refuses is refused', async () => {
    expect([holds('email', accepted.email), holds('uri', accepted.site), holds('date-time', accepted.since)]).toEqual([false, false, false]);
    expect((await invoke(SaveContact, accepted)).value).toEqual(accepted);
    // JSON Schema's email takes an IP domain; class-validator does not.
    expect(holds('email', 'a@127.0.0.1')).toBe(true);
    const refused = await invoke(SaveContact, { ...accepted, email: 'a@127.0.0.1', site: 'not a url' });
    expect(refused.fieldErrors?.map((error) => [error.field, error.keyword, error.params])).toEqual([
      ['email', 'format', { format: 'email' }],
      ['site', 'format', { format: 'url' }],
    ]);
  });

  it('not in the strict projection (OpenAI generates to every format it is shown), nor in the output schema', () => {
    const strict = inputSchema(SaveContact, { strict: true }).properties as Record<string, Record<string, unknown>>;
    expect(Object.entries(strict).filter(([, schema]) => 'format' in schema).map(([name]) => name)).toEqual(['id']);
    const output = outputSchema(SaveContact)!.properties as Record<string, Record<string, unknown>>;
    expect(Object.entries(output).filter(([, schema]) => 'format' in schema).map(([name]) => name)).toEqual(['id']);
  });

  it("@Field({ format }) is toolwright's own rule: still asserted", async () => {
    class Invite {
      @Field({ format: 'email' }) to!: string;
    }
    @Tool({ name: 'invite' })
    @Expects(Invite)
    class InviteTool {
      call() {}
    }
    expect(inputSchema(InviteTool).properties).toEqual({ to: { type: 'string', format: 'email' } });
    expect((await invoke(InviteTool, { to: 'a@bücher.de' })).fieldErrors?.[0]).toMatchObject({ field: 'to', keyword: 'format' });
  });

  it('over MCP (SDK Client, which checks structured content with every format): listed with the annotations, called with values they refuse', async () => {
    const { client, close } = await connectInMemory({ name: 'contacts', version: '1.0.0', tools: [SaveContact] });
    try {
      const [listed] = (await client.listTools()).tools;
      expect((listed.inputSchema.properties as Record<string, { format?: string }>).email.format).toBe('email');
      expect((listed.outputSchema!.properties as Record<string, { format?: string }>).email.format).toBeUndefined();
      const result = await client.callTool({ name: 'save_contact', arguments: accepted });
      expect([result.isError, result.structuredContent]).toEqual([undefined, accepted]);
    } finally {
      await close();
    }
  });
});
