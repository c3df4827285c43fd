/**
 * The tools the official MCP conformance suite calls (its "everything server" contract), written
 * as toolwright tool classes: content through `Content.*`, logs, progress, sampling and
 * elicitation through the tool's context.
 */
import 'reflect-metadata';
import { Content, Expects, Field, JsonSchemaKeywords, SchemaName, Tool } from 'toolwright';
import type { ElicitSchema, ToolContext } from 'toolwright';
import { mcpRequest } from 'toolwright/mcp';

/** A 1×1 red PNG and a minimal WAV file, base64 (what the suite checks for). */
export const TEST_IMAGE_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
export const TEST_AUDIO_BASE64 = 'UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

@Tool({ name: 'test_simple_text', description: 'Tests simple text content response' })
@Expects({})
export class SimpleText {
  call() {
    return Content.text('This is a simple text response for testing.');
  }
}

@Tool({ name: 'test_image_content', description: 'Tests image content response' })
@Expects({})
export class ImageContent {
  call() {
    return Content.image(TEST_IMAGE_BASE64, 'image/png');
  }
}

@Tool({ name: 'test_audio_content', description: 'Tests audio content response' })
@Expects({})
export class AudioContent {
  call() {
    return Content.audio(TEST_AUDIO_BASE64, 'audio/wav');
  }
}

@Tool({ name: 'test_embedded_resource', description: 'Tests embedded resource content response' })
@Expects({})
export class EmbeddedResource {
  call() {
    return Content.resource({ uri: 'test://embedded-resource', mimeType: 'text/plain', text: 'This is an embedded resource content.' });
  }
}

@Tool({ name: 'test_multiple_content_types', description: 'Tests response with multiple content types (text, image, resource)' })
@Expects({})
export class MultipleContentTypes {
  call() {
    return Content.of(
      Content.text('Multiple content types test:'),
      Content.image(TEST_IMAGE_BASE64, 'image/png'),
      Content.resource({
        uri: 'test://mixed-content-resource',
        mimeType: 'application/json',
        text: JSON.stringify({ test: 'data', value: 123 }),
      }),
    );
  }
}

@Tool({ name: 'test_tool_with_logging', description: 'Tests tool that emits log messages during execution' })
@Expects({})
export class ToolWithLogging {
  async call(_input: unknown, context: ToolContext) {
    await context.log('info', 'Tool execution started');
    await pause(50);
    await context.log('info', 'Tool processing data');
    await pause(50);
    await context.log('info', 'Tool execution completed');
    return Content.text('Tool with logging executed successfully');
  }
}

@Tool({ name: 'test_tool_with_progress', description: 'Tests tool that reports progress notifications' })
@Expects({})
export class ToolWithProgress {
  async call(_input: unknown, context: ToolContext) {
    for (const done of [0, 50, 100]) {
      await context.progress(done, 100, `Completed step ${done} of 100`);
      if (done < 100) await pause(50);
    }
    return Content.text('Progress reported: 0, 50 and 100 of 100');
  }
}

@Tool({ name: 'test_error_handling', description: 'Tests error response handling' })
@Expects({})
export class ErrorHandling {
  call(): never {
    throw new Error('This tool intentionally returns an error for testing');
  }
}

@Tool({ name: 'test_sampling', description: 'Tests server-initiated sampling (LLM completion request)' })
@Expects({ prompt: String })
export class Sampling {
  async call(input: { prompt: string }, context: ToolContext) {
    const answer = await context.sample({ messages: [{ role: 'user', content: { type: 'text', text: input.prompt } }], maxTokens: 100 });
    return Content.text(`LLM response: ${answer.content.type === 'text' ? answer.content.text : `(${answer.content.type})`}`);
  }
}

async function elicitAndReport(context: ToolContext, message: string, schema: ElicitSchema, label: string) {
  const answer = await context.elicit(message, schema);
  return Content.text(`${label}: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`);
}

@Tool({ name: 'test_elicitation', description: 'Tests server-initiated elicitation (user input request)' })
@Expects({ message: String })
export class Elicitation {
  call(input: { message: string }, context: ToolContext) {
    const schema: ElicitSchema = {
      type: 'object',
      properties: { response: { type: 'string', description: "User's response" } },
      required: ['response'],
    };
    return elicitAndReport(context, input.message, schema, 'User response');
  }
}

@Tool({ name: 'test_elicitation_sep1034_defaults', description: 'Tests elicitation with default values per SEP-1034' })
@Expects({})
export class ElicitationDefaults {
  call(_input: unknown, context: ToolContext) {
    const schema: ElicitSchema = {
      type: 'object',
      properties: {
        name: { type: 'string', description: 'User name', default: 'John Doe' },
        age: { type: 'integer', description: 'User age', default: 30 },
        score: { type: 'number', description: 'User score', default: 95.5 },
        status: { type: 'string', description: 'User status', enum: ['active', 'inactive', 'pending'], default: 'active' },
        verified: { type: 'boolean', description: 'Verification status', default: true },
      },
      required: [],
    };
    return elicitAndReport(context, 'Please review and update the form fields with defaults', schema, 'Elicitation completed');
  }
}

@Tool({ name: 'test_elicitation_sep1330_enums', description: 'Tests elicitation with enum schema improvements per SEP-1330' })
@Expects({})
export class ElicitationEnums {
  call(_input: unknown, context: ToolContext) {
    const options = ['option1', 'option2', 'option3'];
    const titled = (title: string) =>
      ['value1', 'value2', 'value3'].map((value, i) => ({ const: value, title: `${['First', 'Second', 'Third'][i]} ${title}` }));
    const schema: ElicitSchema = {
      type: 'object',
      properties: {
        untitledSingle: { type: 'string', description: 'Select one option', enum: options },
        titledSingle: { type: 'string', description: 'Select one option with titles', oneOf: titled('Option') },
        legacyEnum: {
          type: 'string',
          description: 'Select one option (legacy)',
          enum: ['opt1', 'opt2', 'opt3'],
          enumNames: ['Option One', 'Option Two', 'Option Three'],
        },
        untitledMulti: {
          type: 'array',
          description: 'Select multiple options',
          minItems: 1,
          maxItems: 3,
          items: { type: 'string', enum: options },
        },
        titledMulti: {
          type: 'array',
          description: 'Select multiple options with titles',
          minItems: 1,
          maxItems: 3,
          items: { anyOf: titled('Choice') },
        },
      },
      required: [],
    };
    return elicitAndReport(context, 'Please select options from the enum fields', schema, 'Elicitation completed');
  }
}

/**
 * Named for `$defs`: the suite looks for `inputSchema.$defs.address`, referenced with `$ref`, and
 * for a hand-written `$anchor` in it.
 */
@SchemaName('address')
@JsonSchemaKeywords({ $anchor: 'addressDef' })
class Address {
  @Field({ optional: true }) street?: string;
  @Field({ optional: true }) city?: string;
}

/**
 * What no declaration says, in raw JSON Schema 2020-12 (the suite looks for allOf/anyOf and
 * if/then/else): a phone or an email, and the one `contactMethod` names. Enforced like the rest.
 */
@JsonSchemaKeywords({
  allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
  if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
  then: { required: ['phone'] },
  else: { required: ['email'] },
})
class JsonSchemaInput {
  @Field({ optional: true }) name?: string;
  @Field({ optional: true, type: Address }) address?: Address;
  @Field({ optional: true, enum: ['phone', 'email'] }) contactMethod?: 'phone' | 'email';
  @Field({ optional: true }) phone?: string;
  @Field({ optional: true }) email?: string;
}

@Tool({
  name: 'json_schema_2020_12_tool',
  description: 'Tool with JSON Schema 2020-12 features for conformance testing (SEP-1613, SEP-2106)',
})
@Expects(JsonSchemaInput)
export class JsonSchema202012 {
  call(input: JsonSchemaInput) {
    return Content.text(`JSON Schema 2020-12 tool called with: ${JSON.stringify(input)}`);
  }
}

@Tool({ name: 'test_logging_tool', description: 'Logs at every level (2026-07-28: only as the request asks with its logLevel)' })
@Expects({})
export class LoggingTool {
  async call(_input: unknown, context: ToolContext) {
    for (const level of ['debug', 'info', 'warning', 'error'] as const) await context.log(level, `A ${level} message`);
    return Content.text('Logged at every level.');
  }
}

class CustomHeadersInput {
  @Field({ description: 'The region to report on, mirrored as the Mcp-Param-Region header' })
  region!: string;

  @Field({ description: 'Whether to include details, mirrored as the Mcp-Param-Verbose header' })
  verbose!: boolean;
}

@Tool({
  name: 'test_custom_headers',
  description: 'Tests custom headers (SEP-2243): its region and verbose arguments are mirrored as Mcp-Param-* headers',
  adapters: { mcp: { headers: { region: 'Region', verbose: 'Verbose' } } },
})
@Expects(CustomHeadersInput)
export class CustomHeaders {
  call(input: CustomHeadersInput): string {
    return `Region ${input.region}${input.verbose ? ', in detail' : ''}`;
  }
}

@Tool({ name: 'test_reconnection', description: 'Closes its SSE stream mid-call; the client resumes it for the result (SEP-1699)' })
@Expects({})
export class Reconnection {
  async call() {
    // Session mode with an event store: the stream ends now, the result follows on the client's resume.
    mcpRequest()?.closeStream();
    await pause(50);
    return Content.text('Reconnection test completed');
  }
}

export const conformanceTools = [
  SimpleText,
  ImageContent,
  AudioContent,
  EmbeddedResource,
  MultipleContentTypes,
  ToolWithLogging,
  ToolWithProgress,
  ErrorHandling,
  Sampling,
  Elicitation,
  ElicitationDefaults,
  ElicitationEnums,
  JsonSchema202012,
  CustomHeaders,
  LoggingTool,
  Reconnection,
];
