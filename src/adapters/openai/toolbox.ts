/**
 * The Toolbox of `toolwright/openai`: the transport-neutral Toolbox (`toolwright/toolbox`) with
 * OpenAI's function tool forms, `schemas()`.
 */
import { Toolbox as NeutralToolbox } from '../toolbox/index';
import type { FunctionApi, FunctionsOptions } from '../toolbox/index';
import { ChatFunctionTool, formatFunction, readSchemaOptions, ResponsesFunctionTool } from './function-format';

/** The options of `toolbox.schemas({ ... })`: which tools, the strict projection, and which OpenAI API's tool form. */
export interface SchemasOptions extends FunctionsOptions {
  /** `chat` (default): Chat Completions tools; `responses`: Responses API function tools. */
  api?: FunctionApi;
}

/**
 * The functions one conversation offers an OpenAI model: the Toolbox of `toolwright/toolbox`, plus
 * `schemas()` in the Chat Completions or Responses form. `invoke` and `invokeAll` take the calls those
 * APIs return as they are, and `toMessages` turns the records into the API's tool messages.
 *
 * ```ts
 * const toolbox = new Toolbox([CheckCredit, ApproveLoanV2], { ambientContext: { officerId } });
 * const completion = await openai.chat.completions.create({ model, messages, tools: toolbox.schemas() });
 * const records = await toolbox.invokeAll(completion.choices[0].message.tool_calls ?? []);
 * messages.push(completion.choices[0].message, ...toMessages(records));
 * ```
 */
export class Toolbox extends NeutralToolbox {
  /**
   * The provider schemas, in registration order, as fresh objects (change them freely: nothing
   * this toolbox advertises later changes). `strict` defaults to the toolbox's mode.
   */
  schemas(options?: SchemasOptions & { api?: 'chat' }): ChatFunctionTool[];
  schemas(options: SchemasOptions & { api: 'responses' }): ResponsesFunctionTool[];
  schemas(options?: SchemasOptions): Array<ChatFunctionTool | ResponsesFunctionTool>;
  schemas(options?: SchemasOptions): Array<ChatFunctionTool | ResponsesFunctionTool> {
    const { strict = this.strict, api, rest } = readSchemaOptions(options, 'Toolbox.schemas', ['only']);
    return this.listFunctions(rest.only, strict, 'Toolbox.schemas').map((described) => formatFunction(described, api));
  }
}
